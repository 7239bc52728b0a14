import CommonsAPI
import Contracts
import Foundation
import ListingsDomain
import ServiceKit
import ServiceTestSupport
import Testing

@testable import ListingsService

/// A listing writes its own JSON (issue 17); the bytes must be those its `Encodable`
/// conformance gives under the services' `JSONEncoder`, for every shape a listing takes.
@Suite("a listing's JSON, written directly")
struct ListingJSONTests {
    private static func date(_ generator: inout some RandomNumberGenerator) -> Date {
        Date(timeIntervalSince1970: Double(Int64.random(in: 0...4_102_444_800, using: &generator)))
    }

    private static func listing(_ generator: inout some RandomNumberGenerator) -> (ListingState, PickupPlace?, Bool) {
        var state = ListingState()
        state.id = UUID()
        state.ownerId = UUID()
        state.title = ["Oak chair", #"A "quoted" \ title"#, "Vélo ✓ 🚲", "tab\tand\nnewline", ""].randomElement(using: &generator)!
        state.description = ["", "Sturdy, a/b slash", String(repeating: "long ", count: 40)].randomElement(using: &generator)!
        state.category = ["Furniture", "Books"].randomElement(using: &generator)!
        state.condition = ["good", "used"].randomElement(using: &generator)!
        state.price = Bool.random(using: &generator) ? nil : Money(amountMinor: Int.random(in: 0...1_000_000, using: &generator), currency: "EUR")
        state.pickupTimes = PickupTimes(
            note: Bool.random(using: &generator) ? nil : "after 6pm",
            windows: (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                PickupWindow(startsAt: date(&generator), endsAt: date(&generator))
            })
        state.imageIds = (0..<Int.random(in: 0...3, using: &generator)).map { _ in UUID() }
        state.publicLocation = Coordinate(lat: Double.random(in: -90...90, using: &generator), lon: Double.random(in: -180...180, using: &generator))
        state.promisedTo = Bool.random(using: &generator) ? UUID() : nil
        state.postedAt = date(&generator)
        state.expiresAt = Bool.random(using: &generator) ? nil : date(&generator)
        state.version = Int64.random(in: 1...1_000, using: &generator)
        let place =
            Bool.random(using: &generator)
            ? nil
            : PickupPlace(
                location: Coordinate(lat: [52.52, 0, -33.868_820_5].randomElement(using: &generator)!, lon: 13.405),
                streetAddress: Bool.random(using: &generator) ? nil : "Hauptstraße 1")
        return (state, place, Bool.random(using: &generator))
    }

    @Test("1,000 random listings, public and private views, alone and in a page: the same bytes as JSONEncoder")
    func sameBytesAsEncoder() throws {
        var generator = SystemRandomNumberGenerator()
        var page: [Listing] = []
        for _ in 0..<1_000 {
            let (state, place, showPromise) = Self.listing(&generator)
            let view = Listing(state, place: place, showPromise: showPromise, now: Self.date(&generator))
            let direct = String(decoding: try ResponseJSON.encode(view), as: UTF8.self)
            let encoded = String(decoding: try foundationJSON(view), as: UTF8.self)
            #expect(direct == encoded)
            page.append(view)
        }
        for cursor in [nil, "next/page"] {
            let wrapped = Page(items: Array(page.prefix(20)), nextCursor: cursor)
            #expect(try ResponseJSON.encode(wrapped) == foundationJSON(wrapped))
        }
    }

    @Test("the OpenAPI schema of a listing names exactly the fields of the one Listing type, and requires those always present")
    func schemaMatchesType() throws {
        guard case .named("Listing", .object(let properties, let required)) = ListingsAPI.listingView else {
            Issue.record("the listing's schema is not a named object")
            return
        }
        func keys(_ listing: CommonsAPI.Listing) throws -> Set<String> {
            let object = try JSONSerialization.jsonObject(with: try ServiceJSON.encoder.encode(listing)) as? [String: Any]
            return Set(try #require(object).keys)
        }
        var generator = SystemRandomNumberGenerator()
        var (state, _, _) = Self.listing(&generator)
        state.price = Money(amountMinor: 500, currency: "EUR")
        state.expiresAt = Date(timeIntervalSince1970: 2_000_000_000)
        state.promisedTo = UUID()
        let place = PickupPlace(location: Coordinate(lat: 52.52, lon: 13.405), streetAddress: "Hauptstraße 1")
        let everything = CommonsAPI.Listing(state, place: place, showPromise: true, now: Date(timeIntervalSince1970: 1_900_000_000))
        #expect(try keys(everything) == Set(properties.keys))
        state.price = nil
        state.expiresAt = nil
        let least = CommonsAPI.Listing(state, place: nil, showPromise: false, now: Date(timeIntervalSince1970: 1_900_000_000))
        #expect(try keys(least) == Set(required))
    }
}
