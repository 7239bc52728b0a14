import EventLog
import Foundation

// Private messages between a listing's owner and one requester. A conversation starts with
// the request (`ListingRequested`, whose message is its first); its id is derived from the
// listing and the requester. Stream: `conversation-<conversationId>`.

/// A participant wrote in a conversation; the text is sealed with the sender's key.
public struct ConversationMessageSent: EventContract, Equatable {
    public static let eventType = "ConversationMessageSent"
    public var conversationId: UUID
    public var messageId: UUID
    public var listingId: UUID
    public var senderId: UUID
    /// The text (a `String`), sealed with the sender's key.
    public var text: Sealed
    public var sentAt: Date

    public init(conversationId: UUID, messageId: UUID, listingId: UUID, senderId: UUID, text: Sealed, sentAt: Date) {
        self.conversationId = conversationId
        self.messageId = messageId
        self.listingId = listingId
        self.senderId = senderId
        self.text = text
        self.sentAt = sentAt
    }
}

/// A participant has read a conversation up to and including one message.
public struct ConversationRead: EventContract, Equatable {
    public static let eventType = "ConversationRead"
    public var conversationId: UUID
    public var readerId: UUID
    public var upToMessageId: UUID

    public init(conversationId: UUID, readerId: UUID, upToMessageId: UUID) {
        self.conversationId = conversationId
        self.readerId = readerId
        self.upToMessageId = upToMessageId
    }
}
