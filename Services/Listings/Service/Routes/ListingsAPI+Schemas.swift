import Contracts
import ListingsDomain
import PhotoCodec
import ServiceKit

/// The bodies the listings routes answer with, as the OpenAPI document describes them. An
/// optional field the server leaves out when it has no value is simply not required.
extension ListingsAPI {
    static let uuid = Schema.string(format: "uuid")
    static let dateTime = Schema.string(format: "date-time")
    static let listingStatus = Schema.oneOf(ListingStatus.allCases.map(\.rawValue))
    static let coordinate = Schema.object(["lat": .latitude, "lon": .longitude], required: ["lat", "lon"])

    /// `CommonsAPI.Listing`: the exact place (`pickupLocation`, `streetAddress`, `directionsURL`) only
    /// for the owner and the promised requester, `promisedTo` only for the owner, `price` only
    /// when not free.
    static let listingView = Schema.object(
        [
            "id": uuid, "ownerId": uuid, "title": .string(), "description": .string(),
            "category": .oneOf(ListingCategory.allCases.map(\.rawValue)), "condition": .oneOf(ItemCondition.allCases.map(\.rawValue)),
            "price": .object(["amountMinor": .integer, "currency": .currencyCode], required: ["amountMinor", "currency"]),
            "free": .boolean,
            "pickupTimes": .pickupTimes,
            "imageIds": .array(uuid), "images": .array(.imageLinks), "status": listingStatus, "approximateLocation": coordinate,
            "postedAt": dateTime, "expiresAt": dateTime, "version": .integer,
            "pickupLocation": coordinate, "streetAddress": .string(), "directionsURL": .string(), "promisedTo": uuid,
        ],
        required: [
            "id", "ownerId", "title", "description", "category", "condition", "free", "pickupTimes", "imageIds", "images",
            "status", "approximateLocation", "postedAt", "version",
        ]
    ).named("Listing")

    /// ``ListingChanges``.
    static let changePage = Schema.object(
        [
            "items": .array(
                .object(
                    [
                        "listingId": uuid, "kind": .oneOf(["created", "edited", "statusChanged", "withdrawn", "removed"]),
                        "status": listingStatus, "changedAt": dateTime,
                    ], required: ["listingId", "kind", "changedAt"])),
            "next": .string(),
        ], required: ["items", "next"])

    /// ``ListingHistoryEntry``s; `status` for status changes, `requesterId` for promises.
    static let history = Schema.object(
        [
            "items": .array(
                .object(
                    [
                        "version": .integer, "type": .string(), "recordedAt": dateTime, "actorId": .string(), "status": listingStatus,
                        "requesterId": uuid,
                    ], required: ["version", "type", "recordedAt"]))
        ], required: ["items"])

    /// ``ListingRequest``: `message` is absent once the requester's account is deleted.
    static let requestView = Schema.object(
        [
            "id": uuid, "listingId": uuid, "requesterId": uuid, "message": .string(), "requestedAt": dateTime, "conversationId": uuid,
        ], required: ["id", "listingId", "requesterId", "requestedAt", "conversationId"]
    ).named("ListingRequest")

    /// ``ReportedListing``: a report's `reason` is null once its reporter's account is deleted.
    static let reportedListing = Schema.object(
        [
            "listingId": uuid, "title": .string(), "status": listingStatus,
            "reports": .array(
                .object(
                    ["reporterId": uuid, "reason": .nullable(.string()), "reportedAt": dateTime],
                    required: ["reporterId", "reason", "reportedAt"])),
        ], required: ["listingId", "title", "status", "reports"])

    /// ``Comment``.
    static let commentView = Schema.object(
        ["id": uuid, "listingId": uuid, "authorId": uuid, "text": .string(), "postedAt": dateTime],
        required: ["id", "listingId", "authorId", "text", "postedAt"]
    ).named("Comment")

    /// ``Conversation``.
    static let conversationView = Schema.object(
        [
            "id": uuid, "listingId": uuid, "ownerId": uuid, "requesterId": uuid, "lastMessageAt": dateTime, "unreadCount": .integer,
        ], required: ["id", "listingId", "ownerId", "requesterId", "lastMessageAt", "unreadCount"]
    ).named("Conversation")

    /// ``Conversations``: a page of ``Conversation``s, and the caller's unread messages in all of them (every
    /// page, within the `listing` asked for); `nextCursor` is absent on the last page.
    static let conversations = Schema.object(
        [
            "items": .array(conversationView), "unreadCount": .integer, "nextCursor": .string(),
        ], required: ["items", "unreadCount"])

    /// ``Message``: `text` is absent once its sender's key is gone.
    static let messageView = Schema.object(
        ["id": uuid, "senderId": uuid, "text": .string(), "sentAt": dateTime],
        required: ["id", "senderId", "sentAt"]
    ).named("Message")

    /// ``UploadedImage``: `width` and `height` when the picture told them.
    static let imageView = Schema.object(
        [
            "id": uuid, "contentType": .oneOf(ServedFormat.allCases.map(\.contentType)), "byteCount": .integer, "sha256": .string(),
            "width": .integer, "height": .integer, "links": .imageLinks,
        ], required: ["id", "contentType", "byteCount", "sha256", "links"]
    ).named("Image")

    /// A page of `items` (the feed, comments, messages); `nextCursor` only when there is a next page.
    static func page(of item: Schema) -> Schema { .object(["items": .array(item), "nextCursor": .string()], required: ["items"]) }
}
