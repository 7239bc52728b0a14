import Contracts
import EventLogTestSupport
import Foundation
import Geo
import Testing

@Suite("nearest-first pages from a growing circle")
struct NearestPagesTests {
    @Test(
        "paging through 400 scattered listings gives exactly the brute-force order, per category and without, from memory and from SQLite",
        arguments: [(Backend.sqlite, true), (Backend.sqlite, false), (Backend.postgres, true)])
    func sameAsBruteForce(backend: Backend, inMemory: Bool) async throws {
        let settings = inMemory ? [:] : ["COMMONS_SEARCH_MEMORY_LISTINGS": "0"]
        try await GeoSearchHarness(backend: backend, settings: settings).test { client in
            var generator = SplitMix(seed: 7)
            let categories = ["Books", "Toys", "Furniture"]
            var listings: [(id: UUID, point: Coordinate, category: String)] = []
            var last = ""
            for index in 0..<400 {
                // Denser near the centre, as in a city: most within a few km, some 30 km out.
                let spread = index % 4 == 0 ? 0.3 : 0.04
                let point = Coordinate(
                    lat: City.sanFrancisco.lat + (generator.unit() - 0.5) * spread,
                    lon: City.sanFrancisco.lon + (generator.unit() - 0.5) * spread)
                let listing = (id: UUID(), point: point, category: categories[index % 3])
                listings.append(listing)
                last = try await client.post(listing.id, category: listing.category, at: point)
            }
            let center = City.sanFrancisco.point
            for category in [nil, "toys"] as [String?] {
                let radius = 12_000.0
                let wanted = listings.filter { category == nil || $0.category.lowercased() == category }
                let measured: [(key: String, meters: Double)] = wanted.map { ($0.id.key, center.distanceMeters(to: $0.point.point)) }
                let expected = measured.filter { $0.meters <= radius }.sorted(by: Self.nearestFirst).map(\.key)
                var seen: [String] = []
                var cursor: String?
                repeat {
                    var uri = "/v1/nearby/listings?lat=\(center.lat)&lon=\(center.lon)&radius=12&limit=7"
                    if let category { uri += "&category=\(category)" }
                    if let cursor { uri += "&cursor=\(cursor)" }
                    let reply = try await client.get(uri, after: last)
                    #expect(reply.status == .ok, "\(reply.text)")
                    seen += (reply.json["items"] as? [[String: Any]] ?? []).ids
                    cursor = reply.json["nextCursor"] as? String
                } while cursor != nil && seen.count <= expected.count
                #expect(seen == expected, "category \(category ?? "any")")
                #expect(expected.count > 50)
            }
        }
    }
}

extension NearestPagesTests {
    static func nearestFirst(_ a: (key: String, meters: Double), _ b: (key: String, meters: Double)) -> Bool {
        a.meters != b.meters ? a.meters < b.meters : a.key < b.key
    }
}

/// A small deterministic generator, so that a failure can be replayed.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func unit() -> Double {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return Double((z ^ (z >> 31)) >> 11) / 9_007_199_254_740_992
    }
}
