import CommonsAPI
import Contracts
import DonationsDomain
import EventLog
import Foundation
import Logging
import ServiceKit

/// The donations service's commands, free of HTTP: each loads the streams it needs, decides
/// with the domain types, and appends with the version it saw.
package struct DonationsCommands: Sendable {
    let store: any EventStore
    let sealer: PersonalDataSealer
    let clock: WallClock
    /// The card processor; nil when the deployment has none, and top-ups are refused.
    let payments: (any PaymentProvider)?
    let wallets: WalletBook
    /// How often a command decides again after losing a race for a stream's version.
    let attempts = 20
    /// The one write path (``CommandHandler``) over this service's log.
    var handler: CommandHandler { CommandHandler(store: store, attempts: attempts) }

    /// The commands over `store` and the key vault beside it.
    package init(
        store: any EventStore, vault: any KeyVault, clock: WallClock = .system,
        payments: (any PaymentProvider)? = nil
    ) {
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
        _ = try await handler.start(
            Streams.slug(draft.slug),
            with: [
                try EventCatalog.encode(OrganizationSlugReserved(organizationId: id, slug: draft.slug), metadata: metadata)
            ], orThrow: DonationsError.slugTaken)
        let events = try OrganizationState.register(draft, id: id).map { try EventCatalog.encode($0, metadata: metadata) }
        let result = try await handler.start(Streams.organization(id), with: events, orThrow: WriteConflict(stream: Streams.organization(id)))
        return (try await organization(id), result.checkpoint)
    }

    /// Changes an organisation with `change` applied to its current draft, if it is still at
    /// `expectedVersion`; 412 otherwise.
    func update(
        _ id: UUID, expectedVersion: Int64, metadata: EventMetadata,
        change: (inout OrganizationDraft) -> Void
    ) async throws -> (OrganizationState, Checkpoint?) {
        try await changeOrganization(id, ifMatch: expectedVersion, metadata: metadata) { state in
            guard var draft = state.draft else { throw DonationsError.organizationNotFound }
            change(&draft)
            return try state.update(to: try draft.validated())
        }
    }

    /// Verifies an organisation or withdraws its verification; nothing happens when it is so already.
    package func verify(_ id: UUID, verified: Bool, metadata: EventMetadata) async throws -> (OrganizationState, Checkpoint?) {
        try await changeOrganization(id, metadata: metadata) { state in
            try state.verify(verified, now: clock.now()).map { [$0] } ?? []
        }
    }

    /// Appends what `decide` makes of the organisation's state; nothing when it makes nothing.
    /// An organisation that does not exist is not found, whatever version `ifMatch` names.
    private func changeOrganization(
        _ id: UUID, ifMatch: Int64? = nil, metadata: EventMetadata,
        _ decide: (OrganizationState) throws -> [any EventContract]
    ) async throws -> (OrganizationState, Checkpoint?) {
        try await handler.handle(
            Streams.organization(id), ifMatch: ifMatch,
            load: {
                let state = try await organization(id)
                guard state.exists else { throw DonationsError.organizationNotFound }
                return (state, state.version)
            }
        ) { state, _ in
            let events = try decide(state)
            guard !events.isEmpty else { return .answer((state, nil)) }
            return .append(try events.map { try EventCatalog.encode($0, metadata: metadata) }) { result in
                (try await organization(id), result.checkpoint)
            }
        }
    }

    /// Adds a new impact estimate; earlier ones stay as they were.
    func addEstimate(
        _ estimate: NewImpactEstimate, to id: UUID, estimateId: UUID, metadata: EventMetadata
    ) async throws -> (ImpactEstimateAdded, Checkpoint) {
        try await handler.handle(
            Streams.organization(id),
            load: {
                let state = try await organization(id)
                return (state, state.version)
            }
        ) { state, _ in
            if let existing = state.estimates.first(where: { $0.estimateId == estimateId }) {
                return .answer((existing, try await store.head()))
            }
            let event = try estimate.decide(for: state, estimateId: estimateId, now: clock.now())
            return .append([try EventCatalog.encode(event, id: estimateId, metadata: metadata)]) { result in (event, result.checkpoint) }
        }
    }
}
