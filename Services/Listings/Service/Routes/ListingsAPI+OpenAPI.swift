import ListingsDomain
import PhotoCodec
import ServiceKit

extension ListingsAPI {
    typealias Schema = OpenAPIDocument.Schema
    typealias Parameter = OpenAPIDocument.Parameter

    static let money = Schema.object(["amountMinor": .integer(1...ListingDraft.maximumPriceMinor), "currency": .currencyCode],
                                     required: ["amountMinor", "currency"])
    static let listingBody = Schema.object([
        "title": .string(minLength: 1, maxLength: ListingDraft.maximumTitleLength),
        "description": .string(maxLength: ListingDraft.maximumDescriptionLength),
        "category": .oneOf(ListingCategory.allCases.map(\.rawValue)), "condition": .oneOf(ItemCondition.allCases.map(\.rawValue)),
        "price": money,
        "pickupTimes": .object([
            "note": .string(maxLength: ListingDraft.maximumPickupNoteLength),
            "windows": .array(.object(["startsAt": .string(format: "date-time"), "endsAt": .string(format: "date-time")]),
                              maxItems: ListingDraft.maximumPickupWindows),
        ]),
        "pickupLocation": .object(["lat": .latitude, "lon": .longitude], required: ["lat", "lon"]),
        "streetAddress": .string(maxLength: ListingDraft.maximumAddressLength),
        "imageIds": .array(.string(format: "uuid"), maxItems: ListingDraft.maximumImages),
    ])
    /// The query of `GET /v1/listings` (``FeedQuery`` and ``feedQuery(_:)``). `status` is a
    /// comma-separated list of at most ``FeedQuery/maximumStatuses`` statuses.
    static let feedParameters: [Parameter] = [
        Parameter("category", .oneOf(ListingCategory.allCases.map(\.rawValue))), Parameter("free", .boolean),
        Parameter("minPrice", .integer(0...Int.max)), Parameter("maxPrice", .integer(0...Int.max)), Parameter("currency", .currencyCode),
        Parameter("status", .string(minLength: 1, maxLength: FeedQuery.maximumStatusLength)), Parameter("author", .oneOf(["me"])),
        Parameter("q", .searchText),
        Parameter("sort", .oneOf(FeedQuery.Sort.allCases.map(\.rawValue))), .limit(1...FeedQuery.maximumLimit), .cursor,
    ]
    /// ``SequencePaging``: comments and messages.
    static let sequencePaging: [Parameter] = [.limit(), .cursor]

    /// Every route of the listings service (a test keeps this equal to the router's).
    static let document = OpenAPIDocument(title: "Commons listings", operations: [
        .init("POST", "/v1/listings", "Post a listing (free when price is absent).", authenticated: true,
              body: listingBody, responses: [201: "Posted", 422: "Invalid fields, all of them listed"]),
        .init("GET", "/v1/listings", "The feed: category, free, minPrice, maxPrice, currency, "
                  + "status (a comma-separated list of at most \(FeedQuery.maximumStatuses) statuses), author=me, "
                  + "q (at most 200 characters; its first 20 words of letters and digits), sort, limit, cursor.",
              query: feedParameters, responses: [200: "A page", 400: "Invalid query"]),
        .init("GET", "/v1/listings/changes", "What changed since a point of the change feed (since, limit).",
              query: [Parameter("since", .integer(0...Int(Int64.max))), .limit(1...500)], responses: [200: "Changes", 400: "Invalid query"]),
        .init("GET", "/v1/listings/{id}", "A listing; the exact pickup place only for its owner and the promised requester.",
              responses: [200: "OK", 404: "No such listing"]),
        .init("PATCH", "/v1/listings/{id}", "Edit a listing (owner; If-Match required).", authenticated: true, body: listingBody,
              responses: [200: "Edited", 403: "Not the owner", 409: "Not editable in this status", 412: "Stale If-Match", 428: "If-Match missing"]),
        .init("DELETE", "/v1/listings/{id}", "Withdraw a listing (owner).", authenticated: true,
              responses: [200: "Withdrawn", 403: "Not the owner", 409: "Already given, sold or withdrawn"]),
        .init("POST", "/v1/listings/{id}/status", "Move a promised listing to available, given (free) or sold (priced).", authenticated: true,
              body: .object(["status": .oneOf(["available", "given", "sold"])], required: ["status"]), responses: [200: "Changed", 409: "Illegal transition"]),
        .init("POST", "/v1/listings/{id}/renew", "Extend a listing's life, or bring an expired one back.", authenticated: true,
              responses: [200: "Renewed", 409: "Illegal transition", 429: "Renewed too recently"]),
        .init("GET", "/v1/listings/{id}/history", "The listing's events with time and actor (owner).", authenticated: true),
        .init("POST", "/v1/listings/{id}/requests", "Ask the owner for an available listing.", authenticated: true,
              body: .object(["message": .string(minLength: 1, maxLength: maximumRequestMessageLength)], required: ["message"]), responses: [201: "Requested", 409: "Not available"]),
        .init("GET", "/v1/listings/{id}/requests", "The listing's requests (owner).", authenticated: true),
        .init("POST", "/v1/listings/{id}/promise", "Promise the listing to one request's author (owner).", authenticated: true,
              body: .object(["requestId": .string(format: "uuid")], required: ["requestId"]), responses: [200: "Promised", 409: "Not available"]),
        .init("POST", "/v1/listings/{id}/reports", "Report a listing; enough distinct reporters hide it pending review.", authenticated: true,
              body: .object(["reason": .string(minLength: 1, maxLength: maximumReasonLength)], required: ["reason"]), responses: [202: "Reported", 422: "No reason"]),
        .init("GET", "/v1/listings/reports", "Listings with open reports (admins).", authenticated: true, responses: [200: "OK", 403: "Not an admin"]),
        .init("POST", "/v1/listings/{id}/reports/resolve", "Resolve a listing's open reports: dismissed or removed (admins).", authenticated: true,
              body: .object(["decision": .oneOf(["dismissed", "removed"])], required: ["decision"]), responses: [200: "Resolved", 403: "Not an admin"]),
        .init("POST", "/v1/listings/{id}/comments", "Comment on a listing.", authenticated: true,
              body: .object(["text": .string(minLength: 1, maxLength: maximumCommentLength)], required: ["text"]), responses: [201: "Posted", 422: "Empty or too long"]),
        .init("GET", "/v1/listings/{id}/comments", "A listing's comments, oldest first (limit, cursor).", query: sequencePaging),
        .init("DELETE", "/v1/listings/{id}/comments/{commentId}", "Delete a comment (its author or the listing's owner).", authenticated: true,
              responses: [204: "Deleted", 403: "Neither author nor owner", 404: "No such comment"]),
        .init("GET", "/v1/conversations", "My conversations (as owner or requester), newest first, with unread counts.", authenticated: true),
        .init("GET", "/v1/conversations/{id}/messages", "A conversation's messages, oldest first (limit, cursor); participants only.",
              authenticated: true, query: sequencePaging, responses: [200: "OK", 404: "No such conversation of mine"]),
        .init("POST", "/v1/conversations/{id}/messages", "Write in a conversation; participants only.", authenticated: true,
              body: .object(["text": .string(minLength: 1, maxLength: maximumMessageLength)], required: ["text"]), responses: [201: "Sent", 404: "No such conversation of mine"]),
        .init("POST", "/v1/conversations/{id}/read", "Mark a conversation read up to its last message.", authenticated: true,
              responses: [204: "Marked", 404: "No such conversation of mine"]),
        .init("POST", "/v1/images", "Upload a JPEG, PNG, WebP or HEIC (raw body or multipart), at most 10 MB.", authenticated: true,
              responses: [201: "Stored", 413: "Larger than 10 MB", 415: "Not a supported image"]),
        .init("GET", "/v1/images/{id}", "An image, cacheable for a year.",
              query: [Parameter("size", .oneOf(PhotoSize.allCases.map(\.rawValue)))], responses: [200: "The image", 304: "Not modified", 404: "No such image"]),
    ])
}
