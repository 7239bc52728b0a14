import Contracts
import Geo
import GeoSearchDomain
import ServiceKit

extension GeoSearchAPI {
    typealias Schema = OpenAPIDocument.Schema
    typealias Parameter = OpenAPIDocument.Parameter

    /// A short free-text filter (``QueryParameters/label(_:)``).
    static let label = Schema.string(maxLength: 100)
    static let unit = Parameter("unit", .oneOf(DistanceUnit.allCases.map(\.rawValue)))
    /// `lat`, `lon`, `radius` (in `unit`, kilometres by default: 20,000 at most) of ``NearbyQuery``.
    static let nearby = [
        Parameter("lat", .latitude, required: true), Parameter("lon", .longitude, required: true),
        Parameter("radius", .number(0...NearbyQuery.maximumRadius)), unit,
    ]
    /// `POST /v1/alerts`: the radius's bound depends on its unit (``AlertCriteria/maximumRadius(in:)``).
    static let newAlert = Schema.object(
        [
            "lat": .latitude, "lon": .longitude, "radius": .number(0...AlertCriteria.maximumRadius(in: .kilometers)),
            "unit": unit.schema, "category": label, "q": .nullable(.searchText), "name": label,
        ],
        required: ["lat", "lon"]
    ).requiringAny(of: [
        .object(["unit": .oneOf([DistanceUnit.kilometers.rawValue])]),
        .object(
            ["unit": .oneOf([DistanceUnit.miles.rawValue]), "radius": .number(0...AlertCriteria.maximumRadius(in: .miles))],
            required: ["unit"]),
    ])
    /// The corners of ``AreaQuery``.
    static let area = [
        Parameter("swLat", .latitude, required: true), Parameter("swLon", .longitude, required: true),
        Parameter("neLat", .latitude, required: true), Parameter("neLon", .longitude, required: true),
    ]
    /// ``ListingFilters``.
    static let listingFilters = [
        Parameter("category", label), Parameter("q", .searchText), Parameter("free", .boolean),
        Parameter("status", .oneOf(ListingFilters.searchable.map(\.rawValue))),
        Parameter("sort", .oneOf(ResultOrder.allCases.map(\.rawValue))),
    ]
    /// ``OrganizationFilters``.
    static let organizationFilters = [
        Parameter("kind", .oneOf(OrganizationKind.allCases.map(\.rawValue))), Parameter("tag", label),
        Parameter("acceptsCategory", label),
    ]
    /// ``Paging``.
    static let paging: [Parameter] = [.limit(), .cursor, Parameter("count", .boolean)]

    /// Every route of the geo-search service (a test keeps this equal to the router's).
    static let document = OpenAPIDocument(
        title: "Commons geo-search",
        operations: [
            .init(
                "GET", "/v1/nearby/listings",
                "Listings near a point (lat, lon, radius at most 20000 in its unit=km|mi; category, q (at most 10 words and 200 characters), free, "
                    + "status=available|promised, sort=distance|recent, limit 1–100, cursor, count=true), nearest first with distanceMeters.",
                query: nearby + listingFilters + paging,
                responses: [200: "{ items, nextCursor } or { count }", 400: "Invalid or missing fields", 422: "Would read too many listings"],
                returns: [200: results(listingResult)]),
            .init(
                "GET", "/v1/nearby/organizations",
                "Charities and donation centres near a point (lat, lon, radius, unit; kind=charity|centre|both, tag, "
                    + "acceptsCategory, limit, cursor, count=true), nearest first with distanceMeters.",
                query: nearby + organizationFilters + paging,
                responses: [200: "{ items, nextCursor } or { count }", 400: "Invalid or missing fields"],
                returns: [200: results(organizationResult)]),
            .init(
                "GET", "/v1/area/listings",
                "Listings in a map box (swLat, swLon, neLat, neLon; edges inside; swLon > neLon crosses the antimeridian), "
                    + "with the listing filters; newest first, or sort=distance from the box's middle.",
                query: area + listingFilters + paging,
                responses: [200: "{ items, nextCursor } or { count }", 400: "Invalid or missing fields", 422: "Would read too many listings"],
                returns: [200: results(listingResult)]),
            .init(
                "GET", "/v1/area/organizations",
                "Organisations in a map box (swLat, swLon, neLat, neLon), with kind, tag and acceptsCategory; "
                    + "nearest the box's middle first.",
                query: area + organizationFilters + paging, responses: [200: "{ items, nextCursor } or { count }", 400: "Invalid or missing fields"],
                returns: [200: results(organizationResult)]),
            .init(
                "POST", "/v1/alerts",
                "Save a search: new listings within radius (unit=km|mi, at most 100 km or 62.137 mi) of lat/lon, optionally of a category "
                    + "and with keywords q. At most 20 per account.",
                authenticated: true,
                body: newAlert,
                responses: [
                    201: "The alert", 409: "Too many alerts, or Idempotency-Key still in use by a first request",
                    422: "Invalid or missing fields",
                ],
                returns: [201: alertView]),
            .init(
                "GET", "/v1/alerts", "My alerts.", authenticated: true, responses: [200: "{ items }"],
                returns: [200: .object(["items": .array(alertView)], required: ["items"])]),
            .init(
                "GET", "/v1/alerts/{id}", "One of my alerts.", authenticated: true, responses: [200: "The alert", 404: "Not mine"],
                returns: [200: alertView]),
            .init("DELETE", "/v1/alerts/{id}", "Delete one of my alerts.", authenticated: true, responses: [204: "Deleted", 404: "Not mine"]),
            .init(
                "GET", "/v1/alerts/matches",
                "New listings my alerts matched since my last read (limit 1–100), oldest first; moves the read marker past them.",
                authenticated: true, query: [.limit()], responses: [200: "{ items, readUpTo, hasMore }"], returns: [200: matchesPage]),
            .init(
                "GET", "/v1/alerts/stream",
                "My matches live as server-sent events (event: match), resumable with Last-Event-ID; from the read marker otherwise.",
                authenticated: true, responses: [200: "text/event-stream", 400: "Bad Last-Event-ID"]),
        ])
}
