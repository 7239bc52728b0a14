import ServiceKit

extension GeoSearchAPI {
    /// Every route of the geo-search service (a test keeps this equal to the router's).
    static let document = OpenAPIDocument(title: "Commons geo-search", operations: [
        .init("GET", "/v1/nearby/listings",
              "Listings near a point (lat, lon, radius, unit=km|mi; category, q, free, status=available|promised, "
                  + "sort=distance|recent, limit 1–100, cursor, count=true), nearest first with distanceMeters.",
              responses: [200: "{ items, nextCursor } or { count }", 400: "Invalid or missing fields"]),
        .init("GET", "/v1/nearby/organizations",
              "Charities and donation centres near a point (lat, lon, radius, unit; kind=charity|centre|both, tag, "
                  + "acceptsCategory, limit, cursor, count=true), nearest first with distanceMeters.",
              responses: [200: "{ items, nextCursor } or { count }", 400: "Invalid or missing fields"]),
        .init("GET", "/v1/area/listings",
              "Listings in a map box (swLat, swLon, neLat, neLon; edges inside; swLon > neLon crosses the antimeridian), "
                  + "with the listing filters; newest first, or sort=distance from the box's middle.",
              responses: [200: "{ items, nextCursor } or { count }", 400: "Invalid or missing fields"]),
        .init("GET", "/v1/area/organizations",
              "Organisations in a map box (swLat, swLon, neLat, neLon), with kind, tag and acceptsCategory; "
                  + "nearest the box's middle first.",
              responses: [200: "{ items, nextCursor } or { count }", 400: "Invalid or missing fields"]),
    ])
}
