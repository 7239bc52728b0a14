import Contracts
import Geo
import ServiceKit

/// The bodies the geo-search routes answer with, as the OpenAPI document describes them. An
/// optional field the server leaves out when it has no value is simply not required.
extension GeoSearchAPI {
    static let uuid = Schema.string(format: "uuid")
    static let dateTime = Schema.string(format: "date-time")

    /// ``ListingResult``: `price` only when not free, `image` (the first photo) only when it has
    /// photos, `distanceMeters` only for nearby queries (and alert matches).
    static let listingResult = Schema.object(
        [
            "id": uuid, "title": .string(), "description": .string(), "category": .string(), "free": .boolean,
            "price": .object(["amountMinor": .integer, "currency": .currencyCode], required: ["amountMinor", "currency"]),
            "image": .imageLinks, "pickupTimes": .pickupTimes, "status": .oneOf(ListingFilters.searchable.map(\.rawValue)), "lat": .latitude,
            "lon": .longitude, "distanceMeters": .number,
            "postedAt": dateTime, "directionsURL": .string(),
        ], required: ["id", "title", "description", "category", "free", "status", "lat", "lon", "postedAt", "directionsURL"]
    ).named("ListingResult")

    /// `CommonsAPI.OrganizationHit`: `address` and `distanceMeters` as for listings.
    static let organizationResult = Schema.object(
        [
            "id": uuid, "slug": .string(), "name": .string(), "kind": .oneOf(OrganizationKind.allCases.map(\.rawValue)),
            "tags": .array(.string()), "acceptedCategories": .array(.string()), "address": .string(),
            "lat": .latitude, "lon": .longitude, "distanceMeters": .number, "directionsURL": .string(),
        ], required: ["id", "slug", "name", "kind", "tags", "acceptedCategories", "lat", "lon", "directionsURL"]
    ).named("OrganizationResult")

    /// A search's answer: ``ResultPage`` (`items`, and `nextCursor`, null on the last page), or
    /// `{ "count": N }` with `count=true`. The document's schemas have no `oneOf` of objects, so
    /// the three fields are declared and none is required.
    static func results(_ item: Schema) -> Schema {
        .object(["items": .array(item), "nextCursor": .nullable(.string()), "count": .integer])
    }

    /// ``Alert``: `name`, `category` and `q` when the alert has them; `radius` in `unit`.
    static let alertView = Schema.object(
        [
            "id": uuid, "name": .string(), "lat": .latitude, "lon": .longitude, "radius": .number,
            "unit": .oneOf(DistanceUnit.allCases.map(\.rawValue)), "category": .string(), "q": .string(), "createdAt": dateTime,
        ], required: ["id", "lat", "lon", "radius", "unit", "createdAt"]
    ).named("Alert")

    /// ``MatchesPage``: `readUpTo` is null when nothing was new.
    static let matchesPage = Schema.object(
        [
            "items": .array(
                .object(["id": .string(), "alertIds": .array(uuid), "listing": listingResult], required: ["id", "alertIds", "listing"])),
            "readUpTo": .nullable(.string()), "hasMore": .boolean,
        ], required: ["items", "readUpTo", "hasMore"])
}
