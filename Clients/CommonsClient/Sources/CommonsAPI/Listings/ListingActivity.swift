import Foundation

/// One entry of the change feed (`GET /v1/listings/changes`): what happened to which
/// listing, never what it says.
public struct ListingChangeEntry: Codable, Sendable, Equatable {
    public var listingId: String
    public var kind: ListingChangeKind
    public var status: ListingStatus?
    public var changedAt: Date

    public init(listingId: String, kind: String, status: ListingStatus?, changedAt: Date) {
        self.listingId = listingId
        self.kind = ListingChangeKind(rawValue: kind)
        self.status = status
        self.changedAt = changedAt
    }
}

/// A page of the change feed; pass `next` as `since` for what happened after.
public struct ListingChanges: Codable, Sendable, Equatable {
    public var items: [ListingChangeEntry]
    public var next: String

    public init(items: [ListingChangeEntry], next: String) {
        self.items = items
        self.next = next
    }
}

/// One entry of a listing's history (owner only).
public struct ListingHistoryEntry: Codable, Sendable, Equatable {
    public var version: Int64
    public var type: String
    public var recordedAt: Date
    public var actorId: String?
    /// The status it moved to, for a status change.
    public var status: ListingStatus?
    /// Whom it was promised to, for a promise.
    public var requesterId: UUID?

    public init(version: Int64, type: String, recordedAt: Date, actorId: String?, status: ListingStatus?, requesterId: UUID?) {
        self.version = version
        self.type = type
        self.recordedAt = recordedAt
        self.actorId = actorId
        self.status = status
        self.requesterId = requesterId
    }
}

/// A request for a listing, as its author and the listing's owner see it.
public struct ListingRequest: Codable, Sendable, Equatable {
    public var id: UUID
    public var listingId: UUID
    public var requesterId: UUID
    /// Nil once the requester's account is deleted.
    public var message: String?
    public var requestedAt: Date
    /// The private conversation with the owner that the request opened.
    public var conversationId: UUID

    public init(id: UUID, listingId: UUID, requesterId: UUID, message: String?, requestedAt: Date, conversationId: UUID) {
        self.id = id
        self.listingId = listingId
        self.requesterId = requesterId
        self.message = message
        self.requestedAt = requestedAt
        self.conversationId = conversationId
    }
}

/// An uploaded image, as the service keeps it: cleaned of its metadata, upright, and in
/// every size. A HEIC upload is kept as JPEG.
public struct UploadedImage: Codable, Sendable, Equatable {
    public var id: UUID
    public var contentType: String
    /// Of the cleaned original.
    public var byteCount: Int
    public var sha256: String
    public var width: Int?
    public var height: Int?
    public var links: ImageLinks

    public init(id: UUID, contentType: String, byteCount: Int, sha256: String, width: Int?, height: Int?, links: ImageLinks) {
        self.id = id
        self.contentType = contentType
        self.byteCount = byteCount
        self.sha256 = sha256
        self.width = width
        self.height = height
        self.links = links
    }
}

/// A listing with open reports (admins).
public struct ReportedListing: Codable, Sendable, Equatable {
    public struct Report: Codable, Sendable, Equatable {
        public var reporterId: String
        /// Nil once the reporter's account is deleted (the report still counts).
        public var reason: String?
        public var reportedAt: Date

        enum CodingKeys: String, CodingKey { case reporterId, reason, reportedAt }

        public init(reporterId: String, reason: String?, reportedAt: Date) {
            self.reporterId = reporterId
            self.reason = reason
            self.reportedAt = reportedAt
        }

        /// Writes `reason` even when it is nil (as `null`), so that a reader sees the field.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(reporterId, forKey: .reporterId)
            try container.encode(reason, forKey: .reason)
            try container.encode(reportedAt, forKey: .reportedAt)
        }
    }

    public var listingId: String
    public var title: String
    public var status: ListingStatus
    public var reports: [Report]

    public init(listingId: String, title: String, status: ListingStatus, reports: [Report]) {
        self.listingId = listingId
        self.title = title
        self.status = status
        self.reports = reports
    }
}

/// `{ "status": … }`, the answer of reports and resolutions.
public struct StatusAnswer: Codable, Sendable, Equatable {
    public var status: String

    public init(status: String) {
        self.status = status
    }
}
