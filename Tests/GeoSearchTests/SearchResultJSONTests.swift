import CommonsAPI
import Contracts
import EventLog
import Foundation
import Geo
import ServiceKit
import ServiceTestSupport
import Testing

@testable import GeoSearchService

/// Search results write their own JSON (issue 17); the bytes must be those their `Encodable`
/// conformance gives under the services' `JSONEncoder`, for every shape a result takes.
@Suite("search results' JSON, written directly")
struct SearchResultJSONTests {
    private static let texts = ["Oak chair", #"A "quoted" \ title"#, "Vélo ✓ 🚲", "tab\tand\nnewline", "", "a/b"]

    private static func point(_ generator: inout some RandomNumberGenerator) -> GeoCoordinate {
        GeoCoordinate(lat: Double.random(in: -90...90, using: &generator), lon: Double.random(in: -180...180, using: &generator))!
    }

    private static func distance(_ generator: inout some RandomNumberGenerator) -> Double? {
        [nil, 0, 1_234.5, Double.random(in: 0...50_000, using: &generator)].randomElement(using: &generator)!
    }

    private static func listing(_ generator: inout some RandomNumberGenerator) -> ListingResult {
        let point = point(&generator)
        let row = GeoSearchAPI.ListingRow(
            id: UUID(), title: texts.randomElement(using: &generator)!, description: texts.randomElement(using: &generator)!,
            category: ["Furniture", "Books"].randomElement(using: &generator)!, free: Bool.random(using: &generator),
            price: Bool.random(using: &generator) ? nil : Money(amountMinor: Int.random(in: 0...1_000_000, using: &generator), currency: "EUR"),
            status: ["available", "promised"].randomElement(using: &generator)!, lat: point.lat, lon: point.lon,
            postedAt: Date(timeIntervalSince1970: Double(Int64.random(in: 0...4_102_444_800, using: &generator))),
            posted: Checkpoint(transaction: 7, position: 9), imageId: Bool.random(using: &generator) ? UUID() : nil,
            pickupTimes: pickupTimes(&generator))
        return ListingResult(row, point: point, distanceMeters: distance(&generator))
    }

    private static func pickupTimes(_ generator: inout some RandomNumberGenerator) -> CommonsAPI.PickupTimes? {
        let start = Date(timeIntervalSince1970: Double(Int64.random(in: 0...4_102_444_800, using: &generator)))
        let windows = (0..<Int.random(in: 0...3, using: &generator)).map { hours in
            CommonsAPI.PickupWindow(
                startsAt: start.addingTimeInterval(Double(hours) * 3_600), endsAt: start.addingTimeInterval(Double(hours) * 3_600 + 1_800))
        }
        return [
            nil, CommonsAPI.PickupTimes(note: texts.randomElement(using: &generator)!, windows: windows), CommonsAPI.PickupTimes(windows: windows),
        ]
        .randomElement(using: &generator)!
    }

    private static func organization(_ generator: inout some RandomNumberGenerator) -> OrganizationHit {
        let point = point(&generator)
        let row = GeoSearchAPI.OrganizationRow(
            id: UUID(), slug: "food-bank", name: texts.randomElement(using: &generator)!, kind: "charity",
            tags: Array(texts.shuffled(using: &generator).prefix(Int.random(in: 0...3, using: &generator))),
            acceptedCategories: Array(["Books", "Clothes"].prefix(Int.random(in: 0...2, using: &generator))),
            address: Bool.random(using: &generator) ? nil : texts.randomElement(using: &generator)!, lat: point.lat, lon: point.lon)
        return OrganizationHit(row, point: point, distanceMeters: distance(&generator))
    }

    @Test("1,000 random listings and organisations, alone and in a page: the same bytes as JSONEncoder")
    func sameBytesAsEncoder() throws {
        var generator = SystemRandomNumberGenerator()
        var listings: [ListingResult] = []
        var organizations: [OrganizationHit] = []
        for _ in 0..<1_000 {
            let listing = Self.listing(&generator)
            #expect(try ResponseJSON.encode(listing) == foundationJSON(listing))
            // Kept in memory, its members written once and copied around a distance of each search's.
            var kept = try listing.rendered()
            kept.distanceMeters = Self.distance(&generator)
            #expect(try ResponseJSON.encode(kept) == foundationJSON(kept))
            // As a search from memory hands it over: the place and the search's distance.
            let place = ListingPlaces.Place(free: listing.free, posted: Checkpoint(transaction: 7, position: 9), result: try listing.rendered())
            let hit = FoundListing.kept(place, distanceMeters: Double.random(in: 0...50_000, using: &generator))
            #expect(try ResponseJSON.encode(hit) == foundationJSON(hit.result))
            #expect(try ResponseJSON.encode(hit) == foundationJSON(hit))
            let organization = Self.organization(&generator)
            #expect(try ResponseJSON.encode(organization) == foundationJSON(organization))
            listings.append(listing)
            organizations.append(organization)
        }
        for cursor in [nil, "next/page"] {
            let page = ResultPage(items: Array(listings.prefix(20)), nextCursor: cursor)
            #expect(try ResponseJSON.encode(page) == foundationJSON(page))
            let other = ResultPage(items: Array(organizations.prefix(20)), nextCursor: cursor)
            #expect(try ResponseJSON.encode(other) == foundationJSON(other))
        }
    }

    /// `value` decoded as `API` (CommonsAPI's type, the SDK's) and encoded again.
    private static func roundTrip<API: Codable>(_ value: some Encodable, as type: API.Type) throws -> [UInt8] {
        try ResponseJSON.encode(try ServiceJSON.decoder.decode(API.self, from: Data(try ResponseJSON.encode(value))))
    }

    @Test("each result is CommonsAPI's type: decoded with it and encoded again, the same bytes")
    func resultsAreTheSDKsTypes() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var listing = Self.listing(&generator)
            // A key the writer adds and the SDK's type lacks would be lost on the way round.
            if listing.distanceMeters == nil { listing.distanceMeters = 12.5 }
            #expect(try Self.roundTrip(listing, as: CommonsAPI.ListingHit.self) == ResponseJSON.encode(listing))
            let organization = Self.organization(&generator)
            #expect(try Self.roundTrip(organization, as: OrganizationHit.self) == ResponseJSON.encode(organization))
            let match = AlertMatchResult(id: "7:9", alertIds: [UUID()], listing: listing)
            #expect(try Self.roundTrip(match, as: CommonsAPI.AlertMatch.self) == ResponseJSON.encode(match))
        }
    }
}
