import Contracts
import EventLog
import EventLogTestSupport
import Foundation
import HTTPTypes
import ServiceKit
import ServiceTestSupport
import Synchronization
import Testing

@Suite("listings: PostgreSQL restarted under load")
struct ListingsOutageTests {
    // The limit catches a request that never ends, nothing slower: a request during the outage
    // ends at its 3 s deadline, and the whole test takes seconds.
    @Test(
        "4 clients post 100 listings, each with its key, retrying as the SDK does; PostgreSQL stops mid-run until each client has had a post refused: every post lands exactly once",
        .timeLimit(.minutes(10)))
    func restartUnderLoad() async throws {
        try await ThrowawayPostgres.with { cluster in
            let harness = try await ListingsHarness(backend: .postgres, extra: ["COMMONS_REQUEST_DEADLINE_SECONDS": "3"], postgresURL: cluster.url)
            try await harness.test { client in
                let owner = try await client.person()
                let tally = OutageTally()
                let outage = Task {
                    // Mid-run: a fifth of the posts have landed, so every client has more to post.
                    try await waitFor("a fifth of the posts to land", patience: .seconds(120)) { tally.landed >= 20 }
                    try await cluster.pause()
                    let felt =
                        (try? await waitFor("every client to have a post refused", patience: .seconds(120)) { tally.refusedClients == 4 }) != nil
                    try await cluster.resume()
                    return felt
                }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for worker in 0..<4 {
                        group.addTask {
                            for index in 0..<25 {
                                var fields = ListingsFixtures.listing
                                fields["title"] = "Chair \(worker)-\(index)"
                                // A retry sends the very bytes of the first try, as the SDK does.
                                let body = [UInt8](try JSONSerialization.data(withJSONObject: fields, options: .sortedKeys))
                                var attempts = 0
                                while true {
                                    attempts += 1
                                    let reply = try await client.call(
                                        .post, "/v1/listings", as: owner, bytes: body,
                                        headers: [.idempotencyKey: "post-\(worker)-\(index)", .contentType: "application/json"])
                                    if reply.status == .created {
                                        tally.postLanded()
                                        break
                                    }
                                    guard reply.status.code >= 500 || reply.status == .conflict, attempts < 400 else {
                                        throw TestFailure("post \(worker)-\(index): \(reply.status) \(reply.text)")
                                    }
                                    if reply.status == .serviceUnavailable { tally.postRefused(by: worker) }
                                    try await Task.sleep(for: .milliseconds(100))
                                }
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                #expect(try await outage.value, "every client had a post refused while PostgreSQL was away")
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

/// What the clients of the outage test have seen, for the outage to begin and end by.
private final class OutageTally: Sendable {
    private let posted = Atomic(0)
    private let refusedBy = Mutex(Set<Int>())

    /// How many posts have landed.
    var landed: Int { posted.load(ordering: .relaxed) }
    func postLanded() { posted.add(1, ordering: .relaxed) }

    /// How many clients have had a post answered 503.
    var refusedClients: Int { refusedBy.withLock(\.count) }
    func postRefused(by client: Int) { _ = refusedBy.withLock { $0.insert(client) } }
}
