import Foundation

/// A comment on a listing, as everyone sees it.
public struct Comment: Codable, Sendable, Equatable {
    public var id: String
    public var listingId: String
    public var authorId: String
    public var text: String
    public var postedAt: Date

    public init(id: String, listingId: String, authorId: String, text: String, postedAt: Date) {
        self.id = id
        self.listingId = listingId
        self.authorId = authorId
        self.text = text
        self.postedAt = postedAt
    }
}

/// A conversation of mine, as owner or requester.
public struct Conversation: Codable, Sendable, Equatable {
    public var id: String
    public var listingId: String
    public var ownerId: String
    public var requesterId: String
    public var lastMessageAt: Date
    /// Messages from the other participant since my last read.
    public var unreadCount: Int

    public init(id: String, listingId: String, ownerId: String, requesterId: String, lastMessageAt: Date, unreadCount: Int) {
        self.id = id
        self.listingId = listingId
        self.ownerId = ownerId
        self.requesterId = requesterId
        self.lastMessageAt = lastMessageAt
        self.unreadCount = unreadCount
    }
}

/// `GET /v1/conversations`: a page, and my unread messages in every page.
public struct Conversations: Codable, Sendable, Equatable {
    public var items: [Conversation]
    public var unreadCount: Int
    /// The next page's cursor; nil on the last page.
    public var nextCursor: String?

    public init(items: [Conversation], unreadCount: Int, nextCursor: String?) {
        self.items = items
        self.unreadCount = unreadCount
        self.nextCursor = nextCursor
    }
}

/// A message in a conversation.
public struct Message: Codable, Sendable, Equatable {
    public var id: String
    public var senderId: String
    /// Nil once the sender's account is deleted.
    public var text: String?
    public var sentAt: Date

    public init(id: String, senderId: String, text: String?, sentAt: Date) {
        self.id = id
        self.senderId = senderId
        self.text = text
        self.sentAt = sentAt
    }
}
