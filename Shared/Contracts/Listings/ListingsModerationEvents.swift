import EventLog
import Foundation

// Comments and reports on listings, written by the listings service.

/// Someone reported a listing. Stream: `listingreports-<listingId>`.
public struct ListingReported: EventContract, Equatable {
    public static let eventType = "ListingReported"
    /// 2: the reason is sealed with the reporter's key. 1 carried it in clear (see ``clearReason``).
    public static let schemaVersion = 2
    public var reportId: UUID
    public var listingId: UUID
    public var reporterId: UUID
    /// The reason (a `String`), sealed with the reporter's key; nil in a report of schema 1.
    public var reason: Sealed?
    /// The reason of a report of schema 1, which stored it in clear; nil from schema 2 on.
    public var clearReason: String?
    public var reportedAt: Date

    public init(reportId: UUID, listingId: UUID, reporterId: UUID, reason: Sealed, reportedAt: Date) {
        self.init(reportId: reportId, listingId: listingId, reporterId: reporterId, reason: reason, clearReason: nil, reportedAt: reportedAt)
    }

    private init(reportId: UUID, listingId: UUID, reporterId: UUID, reason: Sealed?, clearReason: String?, reportedAt: Date) {
        self.reportId = reportId
        self.listingId = listingId
        self.reporterId = reporterId
        self.reason = reason
        self.clearReason = clearReason
        self.reportedAt = reportedAt
    }

    /// Schema 1, whose reason was a plain string.
    struct Version1: Decodable {
        var reportId: UUID
        var listingId: UUID
        var reporterId: UUID
        var reason: String
        var reportedAt: Date
    }

    static let upcasters: [Upcaster<ListingReported>] = [
        .from(version: 1, as: Version1.self) { old in
            ListingReported(
                reportId: old.reportId, listingId: old.listingId, reporterId: old.reporterId, reason: nil, clearReason: old.reason,
                reportedAt: old.reportedAt)
        }
    ]
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
