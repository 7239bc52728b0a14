import EventLog
import Foundation

// Events of the `listings` service beyond the three that geo-search reads: what those do not
// carry (condition, pickup times, images, expiry) and the private pickup place, sealed.
// Stream: `listing-<listingId>` unless said otherwise.

/// The public details of a listing that `ListingPosted` and `ListingEdited` do not carry;
/// appended with each of them, every field the whole new value.
public struct ListingDetailsSet: EventContract, Equatable {
    public static let eventType = "ListingDetailsSet"
    public var listingId: UUID
    public var condition: String
    /// Its `note` is in clear only in events appended before it was sealed, and in memory
    /// once ``pickupNote`` is opened.
    public var pickupTimes: PickupTimes
    /// The pickup-time note (a `String`) sealed with the owner's personal-data key, as
    /// ``ListingPosted/text``.
    public var pickupNote: Sealed?
    public var imageIds: [UUID]

    public init(listingId: UUID, condition: String, pickupTimes: PickupTimes, pickupNote: Sealed? = nil, imageIds: [UUID]) {
        self.listingId = listingId
        self.condition = condition
        self.pickupTimes = pickupTimes
        self.pickupNote = pickupNote
        self.imageIds = imageIds
    }
}

/// Where exactly a listing is picked up, sealed with the owner's personal-data key: the
/// exact point and street address never appear in the log in clear, and deleting the
/// owner's account makes them unreadable. Appended at posting and whenever they change.
public struct ListingPickupPlaceSet: EventContract, Equatable {
    public static let eventType = "ListingPickupPlaceSet"
    public var listingId: UUID
    /// A `PickupPlace`, sealed with the owner's key.
    public var place: Sealed

    public init(listingId: UUID, place: Sealed) {
        self.listingId = listingId
        self.place = place
    }
}

/// The private pickup place of a listing, as sealed into `ListingPickupPlaceSet`.
public struct PickupPlace: Codable, Sendable, Hashable {
    public var location: Coordinate
    public var streetAddress: String?

    public init(location: Coordinate, streetAddress: String?) {
        self.location = location
        self.streetAddress = streetAddress
    }
}

/// The listing stays up until `expiresAt` (set at posting, moved by each renewal).
public struct ListingExpirySet: EventContract, Equatable {
    public static let eventType = "ListingExpirySet"
    public var listingId: UUID
    public var expiresAt: Date
    /// True when the owner renewed it (false at posting).
    public var renewed: Bool
    /// When it was set.
    public var setAt: Date

    public init(listingId: UUID, expiresAt: Date, renewed: Bool, setAt: Date) {
        self.listingId = listingId
        self.expiresAt = expiresAt
        self.renewed = renewed
        self.setAt = setAt
    }
}

/// The owner promised the item to the author of one request; appended together with
/// `ListingStatusChanged(promised)`. A later status change back to `available` ends it.
public struct ListingPromised: EventContract, Equatable {
    public static let eventType = "ListingPromised"
    public var listingId: UUID
    public var requestId: UUID
    public var requesterId: UUID

    public init(listingId: UUID, requestId: UUID, requesterId: UUID) {
        self.listingId = listingId
        self.requestId = requestId
        self.requesterId = requesterId
    }
}

/// Someone asked the owner for a listing. Stream: `listingrequests-<listingId>`. The message
/// is the requester's own words, sealed with the requester's key.
public struct ListingRequested: EventContract, Equatable {
    public static let eventType = "ListingRequested"
    public var requestId: UUID
    public var listingId: UUID
    public var requesterId: UUID
    /// The message (a `String`), sealed with the requester's key.
    public var message: Sealed
    public var requestedAt: Date

    public init(requestId: UUID, listingId: UUID, requesterId: UUID, message: Sealed, requestedAt: Date) {
        self.requestId = requestId
        self.listingId = listingId
        self.requesterId = requesterId
        self.message = message
        self.requestedAt = requestedAt
    }
}

/// An image was uploaded. Stream: `image-<imageId>` (``ImageUploads/stream(of:)``). The id is
/// derived from the SHA-256 of the stored bytes and the uploader, so one person's picture
/// uploaded twice is one image (ids stored before that derive from the bytes alone).
public struct ImageStored: EventContract, Equatable {
    public static let eventType = "ImageStored"
    /// 2: the upload is cleaned (upright, no metadata) and kept in smaller ``sizes`` too,
    /// with its dimensions. 1 kept the upload itself (a JPEG without its Exif), with no sizes.
    public static let schemaVersion = 2
    public var imageId: UUID
    /// Hex SHA-256 of the stored (cleaned) bytes: the blob's address.
    public var sha256: String
    public var contentType: String
    public var byteCount: Int
    public var uploaderId: UUID
    public var storedAt: Date
    /// Pixels of the cleaned picture; nil for schema 1.
    public var width: Int?
    public var height: Int?
    /// The smaller sizes (`small`, `medium`), each its own blob; empty for schema 1.
    public var sizes: [StoredImageSize]

    public init(
        imageId: UUID, sha256: String, contentType: String, byteCount: Int, uploaderId: UUID, storedAt: Date,
        width: Int?, height: Int?, sizes: [StoredImageSize]
    ) {
        self.imageId = imageId
        self.sha256 = sha256
        self.contentType = contentType
        self.byteCount = byteCount
        self.uploaderId = uploaderId
        self.storedAt = storedAt
        self.width = width
        self.height = height
        self.sizes = sizes
    }

    /// Schema 1, as stored before photos had sizes.
    struct Version1: Decodable {
        var imageId: UUID
        var sha256: String
        var contentType: String
        var byteCount: Int
        var uploaderId: UUID
        var storedAt: Date
    }

    static let upcasters: [Upcaster<ImageStored>] = [
        .from(version: 1, as: Version1.self) { old in
            ImageStored(
                imageId: old.imageId, sha256: old.sha256, contentType: old.contentType, byteCount: old.byteCount,
                uploaderId: old.uploaderId, storedAt: old.storedAt, width: nil, height: nil, sizes: [])
        }
    ]
}

/// One smaller size of a stored image.
public struct StoredImageSize: Codable, Sendable, Equatable {
    /// `small` or `medium`.
    public var size: String
    /// Hex SHA-256 of its bytes: its blob's address.
    public var sha256: String
    public var byteCount: Int
    public var width: Int
    public var height: Int

    public init(size: String, sha256: String, byteCount: Int, width: Int, height: Int) {
        self.size = size
        self.sha256 = sha256
        self.byteCount = byteCount
        self.width = width
        self.height = height
    }
}
