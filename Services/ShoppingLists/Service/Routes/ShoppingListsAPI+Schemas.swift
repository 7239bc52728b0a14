import ServiceKit
import ShoppingListsDomain

// The JSON bodies the shopping-lists service answers with: CommonsAPI's types, the SDK's
// too. A field the encoder omits when nil is named but not required; `ShoppingSchemaTests`
// holds each schema to its type.
extension ShoppingListsAPI {
    static let uuid = Schema.string(format: "uuid")
    static let dateTime = Schema.string(format: "date-time")
    /// ``Money``: integer minor units and an ISO 4217 code.
    static let money = Schema.object(["amountMinor": .integer, "currency": .currencyCode], required: ["amountMinor", "currency"])
    /// The caller's part in a list.
    static let role = Schema.oneOf(["owner", "member"])

    /// The fields of ``Product``, which a product's detail and a related product share.
    private static let productFields: [String: Schema] = [
        "id": uuid, "name": .string(), "brand": .string(), "category": .string(), "unit": .string(), "image": .string(),
        "caloriesPerUnit": .integer, "cheapestPrice": money, "averageRating": .number, "reviewCount": .integer,
    ]
    private static let productRequired = ["id", "name", "brand", "category", "unit", "caloriesPerUnit", "reviewCount"]

    /// ``Product``.
    static let productBody = Schema.object(productFields, required: productRequired).named("Product")

    /// ``Offer``; `distanceMeters` only when the query gave a point.
    static let offerBody = Schema.object(
        [
            "storeId": uuid, "retailer": .string(), "storeName": .string(), "address": .string(), "lat": .latitude, "lon": .longitude,
            "price": money, "directionsURL": .string(), "distanceMeters": .number, "cheapestNearby": .boolean,
        ],
        required: ["storeId", "retailer", "storeName", "address", "lat", "lon", "price", "directionsURL", "cheapestNearby"]
    ).named("Offer")

    /// ``ProductDetail``: the product's fields with its offers; `favorite` only for a signed-in caller.
    static let productDetailBody = Schema.object(
        productFields.merging(["offers": .array(offerBody), "favorite": .boolean]) { $1 },
        required: productRequired + ["offers"]
    ).named("ProductDetail")

    /// ``RelatedProduct``: the product's fields and on how many lists it shares.
    static let relatedBody = Schema.object(productFields.merging(["sharedLists": .integer]) { $1 }, required: productRequired + ["sharedLists"])

    /// ``PricePoint``; no `price` once the store withdrew the offer.
    static let priceEntryBody = Schema.object(["storeId": uuid, "price": money, "since": dateTime], required: ["storeId", "since"])

    /// ``Review``.
    static let reviewBody = Schema.object(
        ["productId": uuid, "authorId": uuid, "rating": .integer(ReviewRules.ratings), "text": .string(), "at": dateTime],
        required: ["productId", "authorId", "rating", "text", "at"]
    ).named("Review")

    /// ``ListSummary``.
    static let listSummaryBody = Schema.object(
        ["id": uuid, "name": .string(), "ownerId": uuid, "role": role, "itemCount": .integer, "uncheckedCount": .integer, "version": .integer],
        required: ["id", "name", "ownerId", "role", "itemCount", "uncheckedCount", "version"]
    ).named("ListSummary")

    /// ``ListItem``: a catalogue product (`productId`, `product`) or free `text`.
    static let itemBody = Schema.object(
        [
            "id": uuid, "productId": uuid, "product": productBody, "text": .string(), "quantity": .integer, "checked": .boolean, "note": .string(),
            "addedBy": uuid,
        ],
        required: ["id", "quantity", "checked", "addedBy"]
    ).named("ListItem")

    /// ``ShoppingList``.
    static let listBody = Schema.object(
        [
            "id": uuid, "name": .string(), "ownerId": uuid, "role": role, "members": .array(uuid), "items": .array(itemBody),
            "totals": .object(
                ["calories": .integer, "prices": .array(money), "unpricedItems": .integer], required: ["calories", "prices", "unpricedItems"]),
            "version": .integer,
        ],
        required: ["id", "name", "ownerId", "role", "members", "items", "totals", "version"]
    ).named("ShoppingList")

    /// ``ListItemState``: an item as an edit leaves it.
    static let itemStateBody = Schema.object(["id": uuid, "quantity": .integer, "checked": .boolean], required: ["id", "quantity", "checked"])

    /// ``ProblemDocument`` inside a batch's answer: the problem a single request would have got.
    static let problemBody = Schema.object(
        [
            "type": .string(), "title": .string(), "status": .integer, "detail": .string(), "errors": .map(.array(.string())),
            "extensions": .map(.string()),
        ],
        required: ["type", "title", "status", "detail"])

    /// ``ListCommandResults``: each command's result by its command id, and the list's version.
    static let batchBody = Schema.object(
        [
            "results": .map(
                .object(["status": .oneOf(["applied", "rejected"]), "replayed": .boolean, "problem": problemBody], required: ["status"])),
            "version": .integer,
        ],
        required: ["results", "version"])

    /// A page: `nextCursor` only when there is a next page.
    static func page(of items: Schema) -> Schema {
        .object(["items": .array(items), "nextCursor": .cursor], required: ["items"])
    }

    /// `{ items }`: the whole list in one answer.
    static func whole(_ items: Schema) -> Schema {
        .object(["items": .array(items)], required: ["items"])
    }
}
