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

    @Test("bench eventlog --cases refuses a group it does not know, naming the option and the groups", arguments: ["nonsense", "read-all,bogus", ","])
    func unknownCaseGroupRefused(cases: String) async throws {
        let result = try await commons("bench", "eventlog", "--postgres", "postgres://nobody@127.0.0.1:1/none", "--cases", cases, log: nil)
        #expect(result.status != 0, "\(result)")
        #expect(result.stderr.contains("--cases"), "\(result)")
        #expect(result.stderr.contains("read-all"), "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
    }
}
