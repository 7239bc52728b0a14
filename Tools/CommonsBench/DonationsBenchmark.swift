import Contracts
import DonationsDomain
import DonationsService
import EventLog
import Foundation
import ServiceKit

/// The pieces of the donations service that `commons bench donations` times, each beside
/// the raw operation it is built on.
public enum DonationsBenchmark {
    /// A verified organisation and `wallets` funded wallets on `store`; returns one donation
    /// step per wallet, each through the service's command path (organisation lookup,
    /// wallet catch-up, decision, sealed message, append at the expected version).
    public static func donations(store: any EventStore, wallets: Int) async throws -> [@Sendable () async throws -> Void] {
        let commands = DonationsCommands(
            store: store, vault: try ServiceRuntime.vault(beside: store, secrets: .throwaway()), payments: SimulatedCardProcessor())
        let draft = OrganizationDraft(
            name: "Bench charity", slug: "bench-\(UUID().uuidString.prefix(8).lowercased())", kind: .charity,
            mission: "Benchmarks", currency: "USD", minimumDonationMinor: 1)
        let (organization, _) = try await commands.register(draft, metadata: .init())
        let id = organization.id!
        _ = try await commands.verify(id, verified: true, metadata: .init())
        var steps: [@Sendable () async throws -> Void] = []
        for _ in 0..<wallets {
            let account = UUID()
            _ = try await commands.topUp(
                TopUpRequest(amountMinor: TopUpRequest.largestMinor, currency: "USD", cardNumber: SimulatedCardProcessor.approvedCard),
                account: account, topUpId: UUID(), metadata: .init())
            steps.append {
                _ = try await commands.donate(
                    account: account, organization: id.uuidString, amountMinor: 1, currency: "USD", visibility: .public,
                    message: "thank you", donationId: UUID(), metadata: .init())
            }
        }
        return steps
    }

    /// One raw append per call of an event the same size as a donation, to a stream of its own
    /// per wallet at its exact expected version: what a donation costs without deciding.
    public static func rawAppends(store: any EventStore, wallets: Int) -> [@Sendable () async throws -> Void] {
        (0..<wallets).map { _ in
            let account = UUID()
            let version = Counter()
            let donation = DonationMade(
                donationId: UUID(), accountId: account, organizationId: UUID(), amountMinor: 1, currency: "USD",
                visibility: .public, message: Sealed(keyId: account, box: String(repeating: "A", count: 60)),
                recurringId: nil, month: nil, estimateId: nil, at: Date())
            return {
                let expected = version.next()
                _ = try await store.append(
                    to: "benchwallet-\(account.lowercasedText)", expected: .exact(expected), events: [try EventCatalog.encode(donation)])
            }
        }
    }

    /// A per-wallet version counter; each wallet has one worker, so there is no race on it.
    private final class Counter: @unchecked Sendable {
        private var value: Int64 = 0
        func next() -> Int64 {
            defer { value += 1 }
            return value
        }
    }
}
