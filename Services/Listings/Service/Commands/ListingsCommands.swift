import Contracts
import EventLog
import Foundation
import ListingsDomain
import ServiceKit

/// The listings service's commands, free of HTTP: each loads the listing's stream, decides
/// with the domain types, and appends with the version it saw. Commands without an
/// `If-Match` decide again on a concurrent change (a few times); those with one fail.
package struct ListingsCommands: Sendable {
    let store: any EventStore
    let sealer: PersonalDataSealer
    let settings: ListingsSettings
    let clock: WallClock

    /// A listing and the exact place when the reader may see it.
    struct Loaded: Sendable {
        var state: ListingState
        var place: PickupPlace?
    }

    var handler: CommandHandler { CommandHandler(store: store) }

    /// The listing's stream folded, its text opened with the owner's key; a listing not yet
    /// posted has `exists` false.
    func state(of id: UUID) async throws -> (state: ListingState, version: Int64) {
        let (events, version) = try await ListingStreams.load(ListingStreams.listing(id), from: store)
        var opened: [any EventContract] = []
        for event in events { opened.append(try await sealer.openingListingText(event)) }
        return (ListingState.replay(opened, version: version), version)
    }

    /// The listing as its stream tells it, its text opened with the owner's key.
    func load(_ id: UUID) async throws -> ListingState {
        let state = try await state(of: id).state
        guard state.exists else { throw ListingError.notFound }
        return state
    }

    /// ``state(of:)`` of a listing that exists.
    private func existing(_ id: UUID) async throws -> (ListingState, Int64) {
        let state = try await load(id)
        return (state, state.version)
    }

    /// The listing, with its exact place opened for `reader` if they may read it.
    func read(_ id: UUID, as reader: UUID?) async throws -> Loaded {
        try await opened(try await load(id), for: reader)
    }

    private func opened(_ state: ListingState, for reader: UUID?) async throws -> Loaded {
        guard state.mayReadPickupPlace(reader), let sealed = state.pickupPlace else { return Loaded(state: state) }
        return Loaded(state: state, place: try await sealer.open(sealed, as: PickupPlace.self))
    }

    /// Posts a listing as `id`, and answers with it as its owner reads it: from the events it
    /// appended (what reading them back would give, without the round trip). When the id
    /// comes from the request's `Idempotency-Key` and the listing is in the log already (a
    /// retry whose first answer was lost), the stored listing is the answer: a post lands
    /// once however often it is retried.
    func post(_ draft: ListingDraft, by owner: UUID, id: UUID = .random(), metadata: EventMetadata) async throws -> (Loaded, Checkpoint) {
        let problems = draft.normalized.problems()
        guard problems.isEmpty, let location = draft.pickupLocation else { throw ListingError.invalid(problems) }
        let place = PickupPlace(location: location, streetAddress: draft.normalized.streetAddress)
        let sealedPlace = try await sealer.seal(place, for: owner)
        return try await handler.handle(ListingStreams.listing(id), load: { try await state(of: id) }) { stored, _ in
            if stored.exists {
                guard stored.ownerId == owner,
                    let last = try await store.read(stream: ListingStreams.listing(id), from: nil, direction: .backwards, limit: 1).first
                else { throw ListingError.notOwner }
                return .answer((try await opened(stored, for: owner), last.checkpoint))
            }
            let events = try ListingState.post(id: id, owner: owner, draft: draft, place: sealedPlace, now: clock.now(), lifetime: settings.lifetime)
            return .append(try await encode(events, owner: owner, metadata: metadata)) { result in
                (Loaded(state: ListingState.replay(events, version: result.streamVersion), place: place), result.checkpoint)
            }
        }
    }

    /// Replaces the owner's draft with `change` applied to it, at `expectedVersion`.
    func edit(
        _ id: UUID, by actor: UUID, expectedVersion: Int64, metadata: EventMetadata, alsoInvalid: [String: [String]] = [:],
        change: (inout ListingDraft) -> Void
    ) async throws -> (ListingState, Checkpoint) {
        var loaded = Loaded(state: ListingState())
        return try await handler.handle(
            ListingStreams.listing(id), ifMatch: expectedVersion,
            load: {
                loaded = try await read(id, as: actor)
                // Only the owner learns whether their version is current.
                guard loaded.state.ownerId == actor else { throw ListingError.notOwner }
                return (loaded.state, loaded.state.version)
            }
        ) { state, _ in
            var draft = state.draft(place: loaded.place)
            change(&draft)
            let normalized = draft.normalized
            // Faults found outside the draft (e.g. unknown image ids) are reported with the draft's own, all at once.
            if !alsoInvalid.isEmpty { throw ListingError.invalid(normalized.problems().merging(alsoInvalid) { $0 + $1 }) }
            let newPlace: PickupPlace? = normalized.pickupLocation.map { PickupPlace(location: $0, streetAddress: normalized.streetAddress) }
            var sealed: Sealed?
            if let newPlace, newPlace != loaded.place, normalized.problems().isEmpty { sealed = try await sealer.seal(newPlace, for: actor) }
            let events = try state.edit(by: actor, draft: draft, newPlace: sealed, now: clock.now())
            return .append(try await encode(events, owner: actor, metadata: metadata)) { result in
                (apply(events, to: state, version: result.streamVersion), result.checkpoint)
            }
        }
    }

    /// Runs a decision on the current state, deciding again if the stream moved meanwhile.
    func decide(
        _ id: UUID, metadata: EventMetadata,
        _ decision: (ListingState, Date) throws -> [any EventContract]
    ) async throws -> (ListingState, Checkpoint?) {
        try await handler.handle(ListingStreams.listing(id), load: { try await existing(id) }) { state, _ in
            let events = try decision(state, clock.now())
            guard !events.isEmpty else { return .answer((state, nil)) }
            return .append(try await encode(events, metadata: metadata)) { result in
                (apply(events, to: state, version: result.streamVersion), result.checkpoint)
            }
        }
    }

    func withdraw(_ id: UUID, by actor: UUID, metadata: EventMetadata) async throws -> (ListingState, Checkpoint?) {
        try await decide(id, metadata: metadata) { state, now in try state.withdraw(by: actor, now: now) }
    }

    func changeStatus(_ id: UUID, to status: ListingStatus, by actor: UUID, metadata: EventMetadata) async throws -> (ListingState, Checkpoint?) {
        try await decide(id, metadata: metadata) { state, now in try state.changeStatus(to: status, by: actor, now: now) }
    }

    func renew(_ id: UUID, by actor: UUID, metadata: EventMetadata) async throws -> (ListingState, Checkpoint?) {
        try await decide(id, metadata: metadata) { state, now in try state.renew(by: actor, now: now, lifetime: settings.lifetime) }
    }

    /// Writes down an expiry that is due; nil when there was none to write (also when the
    /// owner acted meanwhile and none is due any more).
    func expireIfDue(_ id: UUID, metadata: EventMetadata) async throws -> Checkpoint? {
        try await decide(id, metadata: metadata) { state, now in state.pendingExpiry(now: now) }.1
    }

    /// Appends a request for the listing from `requester`, whose message is sealed with their key.
    func request(_ id: UUID, by requester: UUID, message: String, metadata: EventMetadata) async throws -> (UUID, Checkpoint) {
        let state = try await load(id)
        guard state.ownerId != requester else { throw ListingError.ownListing }
        let status = state.status(at: clock.now())
        guard status == .available else { throw ListingError.illegalTransition(from: status, to: .promised) }
        let requestId = UUID.random()
        let stream = ListingStreams.requests(of: id)
        // Sealed once, and only for a person who may ask (a vault round trip and AES-GCM).
        var event: NewEvent?
        // At the version read, so that two requests of one person at once cannot both pass.
        return try await handler.handle(
            stream,
            load: {
                let (events, version) = try await ListingStreams.load(stream, from: store)
                return (RequestLedger.replay(events, version: version), version)
            }
        ) { ledger, _ in
            try ledger.admit(requester)
            if event == nil {
                event = try EventCatalog.encode(
                    ListingRequested(
                        requestId: requestId, listingId: id, requesterId: requester,
                        message: try await sealer.seal(message, for: requester), requestedAt: clock.now()),
                    metadata: metadata)
            }
            return .append([event!]) { result in (requestId, result.checkpoint) }
        }
    }

    /// The requests of a listing, oldest first.
    func requests(of id: UUID) async throws -> [ListingRequested] {
        try await ListingStreams.load(ListingStreams.requests(of: id), from: store).events.compactMap { $0 as? ListingRequested }
    }

    func promise(_ id: UUID, request requestId: UUID, by actor: UUID, metadata: EventMetadata) async throws -> (ListingState, Checkpoint?) {
        let state = try await load(id)
        guard state.ownerId == actor else { throw ListingError.notOwner }
        guard let request = try await requests(of: id).first(where: { $0.requestId == requestId }) else { throw ListingError.requestNotFound }
        return try await decide(id, metadata: metadata) { state, now in
            try state.promise(to: request.requesterId, request: requestId, by: actor, now: now)
        }
    }

    /// `events` as stored: what `owner` wrote (a listing's text) sealed with their key.
    private func encode(_ events: [any EventContract], owner: UUID? = nil, metadata: EventMetadata) async throws -> [NewEvent] {
        var encoded: [NewEvent] = []
        for event in events {
            var stored = event
            if let owner { stored = try await sealer.sealingListingText(event, owner: owner) }
            encoded.append(try EventCatalog.encodeAny(stored, metadata: metadata))
        }
        return encoded
    }

    private func apply(_ events: [any EventContract], to state: ListingState, version: Int64) -> ListingState {
        var state = state
        for event in events { state.evolve(event) }
        state.version = version
        return state
    }
}

/// `EventCatalog.encode` for an event whose type is known only at run time.
extension EventCatalog {
    static func encodeAny(_ event: any EventContract, metadata: EventMetadata) throws -> NewEvent {
        func open<E: EventContract>(_ event: E) throws -> NewEvent { try EventCatalog.encode(event, id: .random(), metadata: metadata) }
        return try open(event)
    }
}
