import ListingsDomain
import PhotoCodec
import ServiceKit

extension ListingsAPI {
    typealias Schema = OpenAPIDocument.Schema
    typealias Parameter = OpenAPIDocument.Parameter

    static let money = Schema.object(
        ["amountMinor": .integer(1...ListingDraft.maximumPriceMinor), "currency": .currencyCode],
        required: ["amountMinor", "currency"])
    /// The fields of a listing, as posted or edited.
    static let listingFields: [String: Schema] = [
        "title": .string(minLength: 1, maxLength: ListingDraft.maximumTitleLength),
        "description": .string(maxLength: ListingDraft.maximumDescriptionLength),
        "category": .oneOf(ListingCategory.allCases.map(\.rawValue)), "condition": .oneOf(ItemCondition.allCases.map(\.rawValue)),
        "price": money,
        "pickupTimes": .object([
            "note": .string(maxLength: ListingDraft.maximumPickupNoteLength),
            "windows": .array(
                .object(["startsAt": .string(format: "date-time"), "endsAt": .string(format: "date-time")], required: ["startsAt", "endsAt"]),
                maxItems: ListingDraft.maximumPickupWindows),
        ]),
        "pickupLocation": .object(["lat": .latitude, "lon": .longitude], required: ["lat", "lon"]),
        "streetAddress": .string(maxLength: ListingDraft.maximumAddressLength),
        "imageIds": .array(.string(format: "uuid"), maxItems: ListingDraft.maximumImages),
    ]
    /// A new listing: what it is and where to pick it up are required.
    static let newListingBody = Schema.object(listingFields, required: ["title", "category", "condition", "pickupLocation"])
    /// An edit: any of the fields.
    static let listingBody = Schema.object(listingFields)
    /// The query of `GET /v1/listings` (``FeedQuery`` and ``feedQuery(_:)``). `status` is a
    /// comma-separated list of at most ``FeedQuery/maximumStatuses`` statuses.
    static let feedParameters: [Parameter] = [
        Parameter("category", .oneOf(ListingCategory.allCases.map(\.rawValue))), Parameter("free", .boolean),
        Parameter("minPrice", .integer(0...Int.max)), Parameter("maxPrice", .integer(0...Int.max)), Parameter("currency", .currencyCode),
        Parameter("status", .matching(FeedQuery.statusPattern, length: 1...FeedQuery.maximumStatusLength)), Parameter("author", .oneOf(["me"])),
        Parameter("q", .searchText),
        Parameter("sort", .oneOf(FeedQuery.Sort.allCases.map(\.rawValue))), Parameter("order", .oneOf(FeedQuery.Order.allCases.map(\.rawValue))),
        .limit(1...FeedQuery.maximumLimit), .cursor,
    ]
    /// ``ListPaging``: comments, messages, a listing's requests and the reports queue.
    static let sequencePaging: [Parameter] = [.limit(), .cursor]

    /// What every POST can answer through the kit's `Idempotency-Key` handling: 409 while a
    /// first request with the key still runs, 422 for a key reused with another body (implied
    /// by a JSON body; listed for the POSTs without one).
    static let keyInUse = "Idempotency-Key still in use by a first request"
    static let keyReused = "Idempotency-Key reused with another body"

    /// Every route of the listings service (a test keeps this equal to the router's).
    static let document = OpenAPIDocument(
        title: "Commons listings",
        operations: [
            .init(
                "POST", "/v1/listings", "Post a listing (free when price is absent).", authenticated: true,
                body: newListingBody, responses: [201: "Posted", 409: keyInUse, 422: "Invalid fields, all of them listed"],
                returns: [201: listingView]),
            .init(
                "GET", "/v1/listings",
                "The feed: category, free, minPrice, maxPrice, currency, "
                    + "status (a comma-separated list of at most \(FeedQuery.maximumStatuses) statuses; withdrawn and hidden match only with author=me), "
                    + "author=me, "
                    + "q (at most 200 characters; its first 20 words of letters and digits), sort, order, limit, cursor. "
                    + "sort is recent (posted time), price (free counts as 0), title (ignoring case) or relevance (with q, its default); "
                    + "order=asc|desc turns the key either way and defaults to the key's usual way: recent desc (newest first), "
                    + "price and title asc, relevance desc (best match first, the only way). A cursor continues its own sort and order. "
                    + "Pages are kept while no listing changes or expires; Cache-Control: no-cache reads afresh.",
                query: feedParameters, responses: [200: "A page", 400: "Invalid query", 401: "author=me without a valid access token"],
                returns: [200: page(of: listingView)]),
            .init(
                "GET", "/v1/listings/changes", "What changed since a point of the change feed (since, limit).",
                query: [Parameter("since", .integer(0...Int(Int64.max))), .limit(1...500)], responses: [200: "Changes", 400: "Invalid query"],
                returns: [200: changePage]),
            .init(
                "GET", "/v1/listings/{id}", "A listing; the exact pickup place only for its owner and the promised requester.",
                responses: [200: "OK", 404: "No such listing"], returns: [200: listingView]),
            .init(
                "PATCH", "/v1/listings/{id}", "Edit a listing (owner; If-Match required).", authenticated: true, body: listingBody,
                responses: [200: "Edited", 403: "Not the owner", 409: "Not editable in this status", 412: "Stale If-Match", 428: "If-Match missing"],
                returns: [200: listingView]
            ).readingIfMatch(required: true),
            .init(
                "DELETE", "/v1/listings/{id}", "Withdraw a listing (owner).", authenticated: true,
                responses: [200: "Withdrawn", 403: "Not the owner", 409: "Already given, sold or withdrawn"], returns: [200: listingView]),
            .init(
                "POST", "/v1/listings/{id}/status", "Move a promised listing to available, given (free) or sold (priced).", authenticated: true,
                body: .object(["status": .oneOf(["available", "given", "sold"])], required: ["status"]),
                responses: [200: "Changed", 403: "Not the owner", 409: "Illegal transition, or Idempotency-Key still in use"],
                returns: [200: listingView]),
            .init(
                "POST", "/v1/listings/{id}/renew", "Extend a listing's life, or bring an expired one back.", authenticated: true,
                responses: [
                    200: "Renewed", 403: "Not the owner", 409: "Illegal transition, or Idempotency-Key still in use", 422: keyReused,
                    429: "Renewed too recently",
                ],
                returns: [200: listingView]),
            .init(
                "GET", "/v1/listings/{id}/history", "The listing's events with time and actor (owner).", authenticated: true,
                responses: [200: "OK", 403: "Not the owner"], returns: [200: history]),
            .init(
                "POST", "/v1/listings/{id}/requests", "Ask the owner for an available listing.", authenticated: true,
                body: .object(["message": .string(minLength: 1, maxLength: maximumRequestMessageLength)], required: ["message"]),
                responses: [201: "Requested", 409: "Not available, your own listing, asked for already, or Idempotency-Key still in use"],
                returns: [201: requestView]),
            .init(
                "GET", "/v1/listings/{id}/requests", "The listing's requests, oldest first (owner; limit, cursor).", authenticated: true,
                query: sequencePaging, responses: [200: "OK", 400: "Invalid query fields", 403: "Not the owner"],
                returns: [200: page(of: requestView)]),
            .init(
                "POST", "/v1/listings/{id}/promise", "Promise the listing to one request's author (owner).", authenticated: true,
                body: .object(["requestId": .string(format: "uuid")], required: ["requestId"]),
                responses: [
                    200: "Promised", 403: "Not the owner", 409: "Not available, or Idempotency-Key still in use",
                    422: "Not a request for this listing",
                ],
                returns: [200: listingView]),
            .init(
                "POST", "/v1/listings/{id}/reports", "Report a listing; enough distinct reporters hide it pending review.", authenticated: true,
                body: .object(["reason": .string(minLength: 1, maxLength: maximumReasonLength)], required: ["reason"]),
                responses: [202: "Reported", 409: "Your own listing, or Idempotency-Key still in use", 422: "No reason"],
                returns: [202: .object(["status": .oneOf(["reported"])], required: ["status"])]),
            .init(
                "GET", "/v1/listings/reports", "Listings with open reports, in id order, each with all its open reports (admins; limit, cursor).",
                authenticated: true, query: sequencePaging, responses: [200: "OK", 400: "Invalid query fields", 403: "Not an admin"],
                returns: [200: page(of: reportedListing)]),
            .init(
                "POST", "/v1/listings/{id}/reports/resolve", "Resolve a listing's open reports: dismissed or removed (admins).", authenticated: true,
                body: .object(["decision": .oneOf(["dismissed", "removed"])], required: ["decision"]),
                responses: [200: "Resolved: the listing's status", 403: "Not an admin", 409: keyInUse],
                returns: [200: .object(["status": listingStatus], required: ["status"])]),
            .init(
                "POST", "/v1/listings/{id}/comments", "Comment on a listing.", authenticated: true,
                body: .object(["text": .string(minLength: 1, maxLength: maximumCommentLength)], required: ["text"]),
                responses: [201: "Posted", 409: keyInUse, 422: "Empty or too long"], returns: [201: commentView]),
            .init(
                "GET", "/v1/listings/{id}/comments", "A listing's comments, oldest first (limit, cursor).", query: sequencePaging,
                returns: [200: page(of: commentView)]),
            .init(
                "DELETE", "/v1/listings/{id}/comments/{commentId}", "Delete a comment (its author or the listing's owner).", authenticated: true,
                responses: [204: "Deleted", 403: "Neither author nor owner", 404: "No such comment"]),
            .init(
                "GET", "/v1/conversations",
                "My conversations (as owner or requester), newest message first, with unread counts (limit, cursor; listing: only those about one listing).",
                authenticated: true, query: [Parameter("listing", uuid)] + sequencePaging, responses: [200: "OK", 400: "Invalid query fields"],
                returns: [200: conversations]),
            .init(
                "GET", "/v1/conversations/{id}", "One of my conversations, with its unread count; participants only.", authenticated: true,
                responses: [200: "OK", 404: "No such conversation of mine"], returns: [200: conversationView]),
            .init(
                "GET", "/v1/conversations/{id}/messages", "A conversation's messages, oldest first (limit, cursor); participants only.",
                authenticated: true, query: sequencePaging, responses: [200: "OK", 404: "No such conversation of mine"],
                returns: [200: page(of: messageView)]),
            .init(
                "POST", "/v1/conversations/{id}/messages", "Write in a conversation; participants only.", authenticated: true,
                body: .object(["text": .string(minLength: 1, maxLength: maximumMessageLength)], required: ["text"]),
                responses: [201: "Sent", 404: "No such conversation of mine", 409: keyInUse], returns: [201: messageView]),
            .init(
                "POST", "/v1/conversations/{id}/read", "Mark a conversation read up to its last message.", authenticated: true,
                responses: [204: "Marked", 404: "No such conversation of mine", 409: keyInUse, 422: keyReused]),
            .init(
                "POST", "/v1/images", "Upload a JPEG, PNG, WebP or HEIC (raw body or multipart), at most 10 MB.", authenticated: true,
                responses: [
                    201: "Stored", 400: "A multipart body without a file part", 409: keyInUse, 413: "Larger than 10 MB",
                    415: "Not a supported image", 422: "Does not decode, too many pixels, or Idempotency-Key reused",
                    429: "Two of my photos are being processed already (Retry-After)",
                    503: "The service's photo queue is full (Retry-After)",
                ],
                returns: [201: imageView]
            )
            .uploading(["image/jpeg", "image/png", "image/webp", "image/heic", "image/heif"], multipartFile: "file"),
            .init(
                "GET", "/v1/images/{id}", "An image, cacheable by the browser for a day.",
                query: [Parameter("size", .oneOf(PhotoSize.allCases.map(\.rawValue)))],
                responses: [200: "The image", 304: "Not modified", 400: "Unknown size", 404: "No such image"]),
        ])
}
