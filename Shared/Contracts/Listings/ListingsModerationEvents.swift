import EventLog
import Foundation

// Comments and reports on listings, written by the listings service.

/// Someone reported a listing. Stream: `listingreports-<listingId>`.
public struct ListingReported: EventContract, Equatable {
    public static let eventType = "ListingReported"
    public var reportId: UUID
    public var listingId: UUID
    public var reporterId: UUID
    public var reason: String
    public var reportedAt: Date

    public init(reportId: UUID, listingId: UUID, reporterId: UUID, reason: String, reportedAt: Date) {
        self.reportId = reportId
        self.listingId = listingId
        self.reporterId = reporterId
        self.reason = reason
        self.reportedAt = reportedAt
    }
}

/// An administrator resolved the open reports of a listing: `dismissed` (it comes back if
/// it was hidden) or `removed` (it stays hidden). Stream: `listingreports-<listingId>`.
public struct ListingReportsResolved: EventContract, Equatable {
    public static let eventType = "ListingReportsResolved"
    public var listingId: UUID
    public var decision: String
    public var resolvedBy: UUID
    public var resolvedAt: Date

    public init(listingId: UUID, decision: String, resolvedBy: UUID, resolvedAt: Date) {
        self.listingId = listingId
        self.decision = decision
        self.resolvedBy = resolvedBy
        self.resolvedAt = resolvedAt
    }
}

/// Someone commented on a listing; the text is sealed with the author's key. Stream:
/// `listingcomments-<listingId>`.
public struct ListingCommentPosted: EventContract, Equatable {
    public static let eventType = "ListingCommentPosted"
    public var commentId: UUID
    public var listingId: UUID
    public var authorId: UUID
    /// The text (a `String`), sealed with the author's key.
    public var text: Sealed
    public var postedAt: Date

    public init(commentId: UUID, listingId: UUID, authorId: UUID, text: Sealed, postedAt: Date) {
        self.commentId = commentId
        self.listingId = listingId
        self.authorId = authorId
        self.text = text
        self.postedAt = postedAt
    }
}

/// A comment was deleted by its author or the listing's owner. Stream: `listingcomments-<listingId>`.
public struct ListingCommentDeleted: EventContract, Equatable {
    public static let eventType = "ListingCommentDeleted"
    public var commentId: UUID
    public var listingId: UUID
    public var deletedBy: UUID

    public init(commentId: UUID, listingId: UUID, deletedBy: UUID) {
        self.commentId = commentId
        self.listingId = listingId
        self.deletedBy = deletedBy
    }
}
