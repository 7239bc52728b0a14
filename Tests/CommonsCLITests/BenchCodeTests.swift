import Foundation
import Testing

@Suite("benchmark code")
struct BenchCodeTests {
    static let drivers = ["AccountsBenchmark", "DonationsBenchmark", "GeoSearchBenchmark", "ListingsBenchmark", "ShoppingListsBenchmark"]

    @Test("no service executable carries the benchmark drivers; commons does")
    func driversLiveInTheCLIOnly() throws {
        let directory = commonsExecutable.deletingLastPathComponent()
        func contains(_ binary: String, _ name: String) throws -> Bool {
            try Data(contentsOf: directory.appendingPathComponent(binary)).range(of: Data(name.utf8)) != nil
        }
        for service in ["accounts", "listings", "geo-search", "donations", "shopping-lists"] {
            for driver in Self.drivers { #expect(try !contains(service, driver), "\(service) contains \(driver)") }
        }
        for driver in Self.drivers { #expect(try contains("commons", driver), "commons lacks \(driver)") }
    }
}
