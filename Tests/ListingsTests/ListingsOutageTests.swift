import Contracts
import EventLog
import EventLogTestSupport
import Foundation
import HTTPTypes
import ServiceKit
import ServiceTestSupport
import Testing

@Suite("listings: PostgreSQL restarted under load")
struct ListingsOutageTests {
    @Test("4 clients post 100 listings, each with its key, retrying as the SDK does; PostgreSQL stops for 4 s mid-run: every post lands exactly once")
    func restartUnderLoad() async throws {
        try await ThrowawayPostgres.with { cluster in
            let harness = try await ListingsHarness(backend: .postgres, extra: ["COMMONS_REQUEST_DEADLINE_SECONDS": "3"], postgresURL: cluster.url)
            try await harness.test { client in
                let owner = try await client.person()
                let outage = Task {
                    try await Task.sleep(for: .milliseconds(700))
                    try await cluster.pause()
                    try await Task.sleep(for: .seconds(4))
                    try await cluster.resume()
                }
                let slowest = try await withThrowingTaskGroup(of: Duration.self) { group in
                    for worker in 0..<4 {
                        group.addTask {
                            var slowest = Duration.zero
                            for index in 0..<25 {
                                var fields = ListingsFixtures.listing
                                fields["title"] = "Chair \(worker)-\(index)"
                                // A retry sends the very bytes of the first try, as the SDK does.
                                let body = [UInt8](try JSONSerialization.data(withJSONObject: fields, options: .sortedKeys))
                                var attempts = 0
                                while true {
                                    attempts += 1
                                    let started = ContinuousClock.now
                                    let reply = try await client.call(.post, "/v1/listings", as: owner, bytes: body,
                                                                      headers: [.idempotencyKey: "post-\(worker)-\(index)", .contentType: "application/json"])
                                    slowest = max(slowest, ContinuousClock.now - started)
                                    if reply.status == .created { break }
                                    guard reply.status.code >= 500 || reply.status == .conflict, attempts < 400 else {
                                        throw TestFailure("post \(worker)-\(index): \(reply.status) \(reply.text)")
                                    }
                                    try await Task.sleep(for: .milliseconds(100))
                                }
                            }
                            return slowest
                        }
                    }
                    return try await group.reduce(.zero) { max($0, $1) }
                }
                try await outage.value
                #expect(slowest < .seconds(10), "no request hung past its deadline (slowest \(slowest))")
                var posted: [String: Int] = [:]
                var checkpoint = Checkpoint.start
                while true {
                    let page = try await client.runtime.store.readAll(after: checkpoint, limit: 500, filter: EventFilter(categories: ["listing"]))
                    let sealer = PersonalDataSealer(vault: client.runtime.keyVault)
                    for event in page.events where event.type == "ListingPosted" {
                        // The title is sealed with the owner's key in the log.
                        guard let decoded = try CommonsEvents.catalog.decode(event) else { continue }
                        let opened = try await sealer.openingListingText(decoded) as? ListingPosted
                        posted[opened?.title ?? "?", default: 0] += 1
                    }
                    if page.checkpoint == checkpoint { break }
                    checkpoint = page.checkpoint
                }
                #expect(posted.count == 100, "every post landed")
                #expect(posted.values.allSatisfy { $0 == 1 }, "none twice: \(posted.filter { $0.value > 1 })")
            }
        }
    }
}
