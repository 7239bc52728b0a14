import Contracts
import EventLog
import EventLogTestSupport
import Foundation
import ReadModel
import Testing

/// A search after a post waits for the places alone (``ProjectionsByPath``), not for the
/// alerts, nor for the revocation list when it is anonymous.
@Suite("geo-search: a search waits for the places alone")
struct ReadYourWritesScopeTests {
    @Test("with the alerts halted on an event, a search after a post still finds it, anonymous or signed in; the alerts list waits and answers 503")
    func searchesDoNotWaitForAlerts() async throws {
        var harness = try await GeoSearchHarness()
        harness.readYourWritesPatience = .milliseconds(400)
        try await harness.test { client in
            // An alert the alerts projection cannot read halts it, with retries, until parked.
            _ = try await client.store.append(
                to: "alert-\(UUID().uuidString.lowercased())", expected: .noStream,
                events: [NewEvent(type: AlertCreated.eventType, data: Data("{}".utf8), metadata: EventMetadata(service: "tests"))])
            let id = UUID()
            let position = try await client.post(id, at: City.oakland)
            let alerts = try #require(client.runtime.runners.first { $0.projection.name == "geo-search.alerts" })
            let deadline = ContinuousClock.now + .seconds(30)
            while alerts.status.stalledOn == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            #expect(alerts.status.stalledOn != nil)
            // The others have applied the post before the searches ask for it: the patience is
            // short, for the alerts list's 503, and a loaded machine may take longer to apply it.
            let others = client.runtime.runners.filter { $0 !== alerts }
            let posted = try #require(Checkpoint(position))
            #expect(await ProjectionRunner.waitUntilApplied(others, posted, timeout: .seconds(30)))

            let uri = "/v1/nearby/listings?lat=\(City.oakland.lat)&lon=\(City.oakland.lon)&radius=2"
            let anonymous = try await client.items(uri, after: position)
            #expect(anonymous.map { ($0["id"] as? String)?.lowercased() } == [id.uuidString.lowercased()])
            let signedIn = try await client.send(.get, uri, as: UUID(), after: position)
            #expect(signedIn.status == .ok)
            #expect(try await client.send(.get, "/v1/alerts", as: UUID(), after: position).status == .serviceUnavailable)
        }
    }
}
