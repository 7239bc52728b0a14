import Contracts
import DonationsDomain
import EventLog
import Foundation
import Logging
import ServiceKit

/// The donations service's commands, free of HTTP: each loads the streams it needs, decides
/// with the domain types, and appends with the version it saw.
public struct DonationsCommands: Sendable {
    let store: any EventStore
    let sealer: PersonalDataSealer
    let clock: any DonationsClock
    /// The card processor; nil when the deployment has none, and top-ups are refused.
    let payments: (any PaymentProvider)?
    let wallets: WalletBook
    /// How often a command decides again after losing a race for a stream's version.
    let attempts = 20

    /// The commands over `store` and the key vault beside it.
    public init(store: any EventStore, vault: any KeyVault, clock: any DonationsClock = SystemClock(),
                payments: (any PaymentProvider)? = nil) {
        self.store = store
        sealer = PersonalDataSealer(vault: vault)
        self.clock = clock
        self.payments = payments
        wallets = WalletBook(store: store)
    }

    // MARK: Organisations

    /// The organisation with this id or slug; nil when there is none.
    func organizationId(_ idOrSlug: String) async throws -> UUID? {
        if let id = UUID(uuidString: idOrSlug) { return id }
        let slug = idOrSlug.lowercased()
        guard (1...80).contains(slug.count), slug.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else { return nil }
        let (events, _) = try await Streams.load(Streams.slug(slug), store: store)
        return (events.first as? OrganizationSlugReserved)?.organizationId
    }

    func organization(_ id: UUID) async throws -> OrganizationState {
        let (events, version) = try await Streams.load(Streams.organization(id), store: store)
        return OrganizationState.replay(events.compactMap { $0 }, version: version)
    }

    /// Registers an organisation; its slug is reserved first, so two never share one.
    package func register(_ draft: OrganizationDraft, id: UUID = .random(), metadata: EventMetadata) async throws -> (OrganizationState, Checkpoint) {
        let draft = try draft.validated()
        do {
            _ = try await store.append(to: Streams.slug(draft.slug), expected: .noStream, events: [
                try EventCatalog.encode(OrganizationSlugReserved(organizationId: id, slug: draft.slug), metadata: metadata),
            ])
        } catch EventStoreError.wrongExpectedVersion {
            throw DonationsError.slugTaken
        }
        let events = try OrganizationState.register(draft, id: id).map { try EventCatalog.encode($0, metadata: metadata) }
        let result = try await store.append(to: Streams.organization(id), expected: .noStream, events: events)
        return (try await organization(id), result.checkpoint)
    }

    /// Changes an organisation with `change` applied to its current draft, if it is still at
    /// `expectedVersion`; 412 otherwise.
    func update(_ id: UUID, expectedVersion: Int64, metadata: EventMetadata,
                change: (inout OrganizationDraft) -> Void) async throws -> (OrganizationState, Checkpoint?) {
        let state = try await organization(id)
        guard var draft = state.draft else { throw DonationsError.organizationNotFound }
        guard state.version == expectedVersion else { throw DonationsError.staleVersion(current: state.version) }
        change(&draft)
        let events = try state.update(to: try draft.validated())
        guard !events.isEmpty else { return (state, nil) }
        do {
            let result = try await store.append(to: Streams.organization(id), expected: .exact(state.version),
                                                events: try events.map { try EventCatalog.encode($0, metadata: metadata) })
            return (try await organization(id), result.checkpoint)
        } catch EventStoreError.wrongExpectedVersion(_, _, let actual) {
            throw DonationsError.staleVersion(current: actual)
        }
    }

    /// Verifies an organisation or withdraws its verification; nothing happens when it is so already.
    package func verify(_ id: UUID, verified: Bool, metadata: EventMetadata) async throws -> (OrganizationState, Checkpoint?) {
        for _ in 0..<attempts {
            let state = try await organization(id)
            guard let event = try state.verify(verified, now: clock.now()) else { return (state, nil) }
            do {
                let result = try await store.append(to: Streams.organization(id), expected: .exact(state.version),
                                                    events: [try EventCatalog.encode(event, metadata: metadata)])
                return (try await organization(id), result.checkpoint)
            } catch EventStoreError.wrongExpectedVersion {
                continue
            }
        }
        throw EventStoreError.wrongExpectedVersion(stream: Streams.organization(id), expected: .any, actual: -1)
    }

    /// Adds a new impact estimate; earlier ones stay as they were.
    func addEstimate(_ draft: ImpactEstimateDraft, to id: UUID, estimateId: UUID, metadata: EventMetadata) async throws -> (ImpactEstimateAdded, Checkpoint) {
        for _ in 0..<attempts {
            let state = try await organization(id)
            if let existing = state.estimates.first(where: { $0.estimateId == estimateId }) {
                return (existing, try await store.head())
            }
            let event = try draft.decide(for: state, estimateId: estimateId, now: clock.now())
            do {
                let result = try await store.append(to: Streams.organization(id), expected: .exact(state.version),
                                                    events: [try EventCatalog.encode(event, id: estimateId, metadata: metadata)])
                return (event, result.checkpoint)
            } catch EventStoreError.wrongExpectedVersion {
                continue
            }
        }
        throw EventStoreError.wrongExpectedVersion(stream: Streams.organization(id), expected: .any, actual: -1)
    }
}
