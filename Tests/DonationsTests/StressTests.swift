import Contracts
import DonationsService
import EventLog
import EventLogTestSupport
import Foundation
import HTTPTypes
import ServiceKit
import Synchronization
import Testing

@Suite("donations: 1,000 donations, 64 at a time, against one wallet")
struct StressTests {
    /// What the answers to one Idempotency-Key were.
    struct Answers: Sendable {
        var statuses: [Int] = []
        var donationIds: Set<String> = []
        var amount = 0
    }

    /// Every key's answers, shared by the concurrent requests.
    final class Tally: Sendable {
        let table = Mutex<[Int: Answers]>([:])
    }

    @Test("with random retries of the same Idempotency-Key, the balance is top-ups minus the donations made, none twice", arguments: Backend.allCases)
    func thousandDonations(backend: Backend) async throws {
        try await DonationsHarness(backend: backend).test { client in
            try await client.organization("stress", minimum: 100)
            let account = UUID()
            let token = try await client.token(account)
            let topUps = [400_000, 300_000, 100_000]
            for amount in topUps { try await client.topUp(token, amount) }
            let answers = Tally()

            // At most 64 requests in flight: concurrent enough to race every key's retries and
            // the wallet's version, without starving the suites that share the test process.
            await withTaskGroup(of: Void.self) { group in
                var inFlight = 0
                for index in 0..<1_000 {
                    let amount = Int.random(in: 500...1_500)
                    let attempts = Int.random(in: 1...3) // the first request, and up to two retries racing it
                    for _ in 0..<attempts {
                        if inFlight >= 64 { await group.next(); inFlight -= 1 }
                        inFlight += 1
                        group.addTask {
                            if Bool.random() { await Task.yield() }
                            guard let reply = try? await client.donate(token, to: "stress", amount, key: "stress-\(index)") else { return }
                            let id = (reply.json["donation"] as? [String: Any])?["id"] as? String
                            answers.table.withLock { table in
                                table[index, default: Answers()].statuses.append(Int(reply.status.code))
                                table[index]!.amount = amount
                                if reply.status == .created, let id { table[index]!.donationIds.insert(id.lowercased()) }
                            }
                        }
                    }
                }
            }

            let table = answers.table.withLock { $0 }
            #expect(table.count == 1_000)
            for (index, answer) in table {
                #expect(answer.donationIds.count <= 1, "key \(index) made more than one donation: \(answer.donationIds)")
                #expect(answer.statuses.allSatisfy { [201, 409].contains($0) }, "key \(index): \(answer.statuses)")
                if !answer.statuses.allSatisfy({ [201, 409].contains($0) }) { break }
            }
            let succeeded = table.values.filter { !$0.donationIds.isEmpty }
            let donated = succeeded.reduce(0) { $0 + $1.amount }
            #expect(succeeded.count > 100, "a good share succeeded")
            #expect(succeeded.count < 1_000, "the wallet ran dry: some were refused")

            // The log is the authority: every donation once, and the balance derived from it.
            let events = try await client.runtime.store.read(stream: "wallet-\(account.key)")
            let donations = try events.compactMap { try CommonsEvents.catalog.decode($0) as? DonationMade }
            #expect(donations.count == succeeded.count)
            #expect(Set(donations.map(\.donationId)).count == donations.count, "no donation twice")
            let answered = Set(succeeded.flatMap(\.donationIds))
            #expect(
                Set(donations.map { $0.donationId.key }).symmetricDifference(answered).isEmpty, "the log holds exactly the donations answered 201")
            #expect(donations.reduce(0) { $0 + $1.amountMinor } == donated)
            let balance = try await client.balance(token)
            #expect(balance == topUps.reduce(0, +) - donated)
            #expect(balance >= 0)
        }
    }

    @Test("the same Idempotency-Key sent to two replicas at once makes one donation", arguments: Backend.allCases)
    func twoReplicas(backend: Backend) async throws {
        let harness = try await DonationsHarness(backend: backend)
        try await harness.test { first in
            try await harness.replica { second in
                try await first.organization("replicated", minimum: 100)
                let account = UUID()
                let token = try await first.token(account)
                try await first.topUp(token, 100_000)
                for round in 0..<20 {
                    await withTaskGroup(of: Void.self) { group in
                        for client in [first, second, first, second] {
                            group.addTask { _ = try? await client.donate(token, to: "replicated", 1_000, key: "replicated-\(round)") }
                        }
                    }
                }
                let donations = try await first.runtime.store.read(stream: "wallet-\(account.key)")
                    .compactMap { try CommonsEvents.catalog.decode($0) as? DonationMade }
                #expect(donations.count == 20)
                #expect(Set(donations.map(\.donationId)).count == 20)
                #expect(try await second.balance(token) == 100_000 - 20 * 1_000)
            }
        }
    }
}
