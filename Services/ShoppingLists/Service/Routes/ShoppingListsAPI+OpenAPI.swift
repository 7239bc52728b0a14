import ServiceKit
import ShoppingListsDomain

extension ShoppingListsAPI {
    typealias Schema = OpenAPIDocument.Schema
    typealias Parameter = OpenAPIDocument.Parameter

    /// Bounds of ``ShoppingListRules``.
    static let listName = Schema.string(minLength: ShoppingListRules.nameLength.lowerBound, maxLength: ShoppingListRules.nameLength.upperBound)
    static let itemText = Schema.string(minLength: ShoppingListRules.textLength.lowerBound, maxLength: ShoppingListRules.textLength.upperBound)
    static let note = Schema.string(maxLength: ShoppingListRules.noteLength.upperBound)
    static let quantity = Schema.integer(ShoppingListRules.quantities)
    static let quantityDelta = Schema.integer(ShoppingListRules.quantityDeltas)
    /// ``ListItemChange``: at least one edit, a `quantityDelta` or `checked` that is not null
    /// (null is no edit), or a `note` or `after` (null clears or moves to the top).
    static let itemChange = Schema.object(["quantityDelta": quantityDelta, "checked": .boolean, "note": note, "after": .string(format: "uuid")])
        .requiringAny(of: [
            .object(["quantityDelta": quantityDelta], required: ["quantityDelta"]), .object(["checked": .boolean], required: ["checked"]),
            .object([:], required: ["note"]), .object([:], required: ["after"]),
        ])

    /// Every route of the shopping-lists service (a test keeps this equal to the router's).
    static let document = OpenAPIDocument(
        title: "Commons shopping lists",
        operations: [
            .init(
                "GET", "/v1/products",
                "Search the catalogue by name (q: at most 200 characters, its first 10 words of letters and digits matched as "
                    + "prefixes, ranked), category, limit 1–100, cursor. Pages are kept while the catalogue is unchanged; "
                    + "Cache-Control: no-cache reads afresh.",
                query: [Parameter("q", .searchText), Parameter("category", .string(maxLength: 100)), .limit(ProductQuery.limits), .cursor],
                responses: [200: "{ items, nextCursor }", 400: "Invalid fields"], returns: [200: page(of: productBody)]),
            .init(
                "GET", "/v1/products/{id}",
                "A product with its offers; with lat and lon (and radius in km, default 5) offers are sorted by distance "
                    + "and the cheapest nearby is marked.",
                query: [Parameter("lat", .latitude), Parameter("lon", .longitude), Parameter("radius", .number(0...100))],
                responses: [200: "OK", 400: "Invalid fields", 404: "No such product"],
                returns: [200: productDetailBody]),
            .init(
                "GET", "/v1/products/{id}/prices",
                "Every price each store asked, oldest first (no `price`: the offer was withdrawn), limit 1–100 (default 100) a page, "
                    + "cursor; `storeId` narrows it to one store. A request reads at most 2,000 of the product's events, so a page of one "
                    + "store's prices may hold fewer than limit and still have a nextCursor.",
                query: [Parameter("storeId", .string(format: "uuid")), .limit(), .cursor],
                responses: [
                    200: "{ items: [{ storeId, price, since }], nextCursor }", 400: "Invalid storeId, limit or cursor", 404: "No such product",
                ],
                returns: [200: page(of: priceEntryBody)]),
            .init(
                "GET", "/v1/products/{id}/related", "Products most often on the same lists, the product itself excluded (limit 1–100).",
                query: [.limit()], responses: [200: "{ items }", 404: "No such product"], returns: [200: whole(relatedBody)]),
            .init(
                "PUT", "/v1/products/{id}/review", "Write or edit my review: 1–5 stars and text.", authenticated: true,
                body: .object(
                    ["rating": .integer(ReviewRules.ratings), "text": .string(maxLength: ReviewRules.maxTextLength)], required: ["rating"]),
                responses: [200: "The review", 404: "No such product", 422: "Invalid fields"], returns: [200: reviewBody]),
            .init(
                "GET", "/v1/products/{id}/reviews",
                "A product's reviews, newest first, limit 1–100 (default 50) a page, cursor. A review whose author deleted the account is left out, "
                    + "so a page may hold fewer than limit.",
                query: [.limit(), .cursor], responses: [200: "{ items, nextCursor }", 400: "Invalid limit or cursor", 404: "No such product"],
                returns: [200: page(of: reviewBody)]),
            .init("PUT", "/v1/products/{id}/favorite", "Mark a product as a favourite.", authenticated: true, responses: [204: "Marked"]),
            .init("DELETE", "/v1/products/{id}/favorite", "Unmark a favourite.", authenticated: true, responses: [204: "Unmarked"]),
            .init(
                "GET", "/v1/me/favorites", "My favourite products, the latest marked first, limit 1–100 (default 100) a page, cursor.",
                authenticated: true,
                query: [.limit(), .cursor], responses: [200: "{ items, nextCursor }", 400: "Invalid limit or cursor"],
                returns: [200: page(of: productBody)]),
            .init(
                "POST", "/v1/lists", "Make a list.", authenticated: true, body: .object(["name": listName], required: ["name"]),
                responses: [201: "Made", 409: "The Idempotency-Key is still in use, or a concurrent change; try again", 422: "Invalid fields"],
                returns: [201: listSummaryBody]),
            .init(
                "GET", "/v1/lists", "My lists and those shared with me, newest first (limit, cursor).", authenticated: true,
                query: [.limit(), .cursor], responses: [200: "{ items, nextCursor }"], returns: [200: page(of: listSummaryBody)]),
            .init(
                "GET", "/v1/lists/events",
                "Changes to my lists as server-sent events (event: list): made, shared, left, renamed, deleted. "
                    + "Resumes after Last-Event-ID; else starts with event: ready { position }.",
                authenticated: true, responses: [200: "text/event-stream", 400: "Bad Last-Event-ID"]),
            .init(
                "GET", "/v1/lists/{id}", "A list: items, checked state, members and totals (cheapest price, calories).", authenticated: true,
                responses: [200: "OK (ETag: its version)", 404: "No such list, or not a member"], returns: [200: listBody]),
            .init(
                "PATCH", "/v1/lists/{id}", "Rename a list (owner; If-Match optional).", authenticated: true,
                body: .object(["name": listName], required: ["name"]),
                responses: [
                    200: "Renamed", 403: "Not the owner", 404: "No such list", 409: "Too many concurrent changes; try again", 412: "Stale If-Match",
                ],
                returns: [200: .object(["id": uuid, "name": .string()], required: ["id", "name"])]
            ).readingIfMatch(required: false),
            .init(
                "DELETE", "/v1/lists/{id}", "Delete a list (owner; If-Match optional).", authenticated: true,
                responses: [
                    204: "Deleted", 403: "Not the owner", 404: "No such list", 409: "Too many concurrent changes; try again", 412: "Stale If-Match",
                ]
            ).readingIfMatch(required: false),
            .init(
                "POST", "/v1/lists/{id}/items", "Add a catalogue product or free text, with quantity 1–999 and a note.", authenticated: true,
                body: .object([
                    "itemId": .string(format: "uuid"), "productId": .string(format: "uuid"), "text": itemText, "quantity": quantity,
                    "note": note,
                ]),
                responses: [
                    201: "Added", 404: "No such list", 409: "Item id taken, the list full, the Idempotency-Key still in use, or a concurrent change",
                    422: "Invalid fields",
                ],
                returns: [201: itemStateBody]),
            .init(
                "PATCH", "/v1/lists/{id}/items/{itemId}",
                "Edit an item: quantityDelta (-1000000 to 1000000, not 0; merges with others' changes; the quantity stays 1–999), checked, "
                    + "note (null clears), after (an item id; null: to the top).",
                authenticated: true,
                body: itemChange,
                responses: [200: "Edited", 404: "No such list or item", 409: "The item was removed, or a concurrent change", 422: "Invalid fields"],
                returns: [200: itemStateBody]),
            .init(
                "DELETE", "/v1/lists/{id}/items/{itemId}", "Remove an item.", authenticated: true,
                responses: [204: "Removed", 404: "No such list or item", 409: "Too many concurrent changes; try again"]),
            .init(
                "POST", "/v1/lists/{id}/members", "Share the list with an account (owner).", authenticated: true,
                body: .object(["accountId": .string(format: "uuid")], required: ["accountId"]),
                responses: [
                    200: "{ members }: the owner first", 403: "Not the owner", 404: "No such list",
                    409: "The Idempotency-Key is still in use, or a concurrent change", 422: "No such account, or the list is full",
                ],
                returns: [200: .object(["members": .array(uuid)], required: ["members"])]),
            .init(
                "DELETE", "/v1/lists/{id}/members/{accountId}", "Leave a list (myself) or remove a member (owner).", authenticated: true,
                responses: [204: "Done", 403: "Not the owner", 404: "No such list or member", 409: "The owner cannot leave, or a concurrent change"]),
            .init(
                "POST", "/v1/lists/{id}/commands",
                "Apply a batch of offline edits in order, each with a client commandId; sending it again changes nothing. "
                    + "Types: addItem, changeQuantity (delta -1000000 to 1000000), check, uncheck, setNote, move, removeItem, rename; at most 200.",
                authenticated: true,
                body: .object(
                    [
                        "commands": .array(
                            .object(
                                [
                                    "commandId": .string(minLength: 1, maxLength: 100),
                                    "type": .oneOf(["addItem", "changeQuantity", "check", "uncheck", "setNote", "move", "removeItem", "rename"]),
                                    "itemId": .string(format: "uuid"), "productId": .string(format: "uuid"), "text": itemText, "quantity": quantity,
                                    "note": note,
                                    "delta": quantityDelta, "checked": .boolean, "after": .string(format: "uuid"), "name": listName,
                                ], required: ["commandId", "type"]), maxItems: maxBatch, minItems: 1)
                    ], required: ["commands"]),
                responses: [
                    200: "{ results: { commandId: { status, replayed, problem } }, version }", 404: "No such list",
                    409: "The Idempotency-Key is still in use, or a concurrent change", 422: "Invalid commands",
                ],
                returns: [200: batchBody]),
            .init(
                "GET", "/v1/lists/{id}/events",
                "Live changes as server-sent events (event: change, id: the list's version); resumes after Last-Event-ID, "
                    + "else starts with event: snapshot (the list now); until=VERSION ends the stream there.",
                authenticated: true, query: [Parameter("until", .integer(0...Int(Int64.max) - 1))],
                responses: [200: "text/event-stream", 400: "Bad Last-Event-ID or until", 404: "No such list"]),
        ])
}
