import Contracts
import DonationsDomain
import EventLog
import Foundation

extension DonationsCommands {
    func recurring(_ id: UUID, of account: UUID) async throws -> RecurringState {
        let (events, _) = try await Streams.load(Streams.recurring(id), store: store)
        return try RecurringState.replay(events.compactMap { $0 }).owned(by: account)
    }

    /// Sets up a monthly donation; the first is made this month, by the scheduler.
    func createRecurring(
        account: UUID, organization idOrSlug: String, amountMinor: Int, currency: String, visibility: DonationVisibility,
        recurringId: UUID, metadata: EventMetadata
    ) async throws -> (RecurringState, Checkpoint) {
        var problems = FieldProblems()
        problems.require((1...Amounts.largestMinor).contains(amountMinor), "must be a positive number of minor units", for: "amountMinor")
        problems.currency(currency)
        try problems.check()
        guard let organizationId = try await organizationId(idOrSlug) else { throw DonationsError.invalid(["organization": ["names no organisation"]]) }
        let organization = try await organization(organizationId)
        guard organization.exists else { throw DonationsError.invalid(["organization": ["names no organisation"]]) }
        try organization.accepts(amountMinor: amountMinor, currency: currency)
        let now = clock.now()
        let created = RecurringDonationCreated(recurringId: recurringId, accountId: account, organizationId: organizationId, amountMinor: amountMinor,
                                               currency: currency, visibility: visibility, startMonth: Month(containing: now).description, at: now)
        do {
            let result = try await store.append(to: Streams.recurring(recurringId), expected: .noStream,
                                                events: [try EventCatalog.encode(created, id: recurringId, metadata: metadata)])
            return (RecurringState.replay([created]), result.checkpoint)
        } catch EventStoreError.wrongExpectedVersion {
            // The same Idempotency-Key again, from another replica: the one set up first stands.
            return (try await recurring(recurringId, of: account), try await store.head())
        }
    }

    /// Changes the amount from the next monthly donation on.
    func changeRecurring(_ id: UUID, of account: UUID, amountMinor: Int, metadata: EventMetadata) async throws -> (RecurringState, Checkpoint?) {
        let state = try await recurring(id, of: account)
        guard let created = state.created else { throw DonationsError.recurringNotFound }
        let organization = try await organization(created.organizationId)
        guard let event = try state.changeAmount(to: amountMinor, organization: organization, now: clock.now()) else { return (state, nil) }
        return try await append(event, to: id, after: state, metadata: metadata)
    }

    func cancelRecurring(_ id: UUID, of account: UUID, metadata: EventMetadata) async throws -> (RecurringState, Checkpoint?) {
        let state = try await recurring(id, of: account)
        guard let event = try state.cancel(now: clock.now()) else { return (state, nil) }
        return try await append(event, to: id, after: state, metadata: metadata)
    }

    private func append(_ event: some EventContract, to id: UUID, after state: RecurringState, metadata: EventMetadata) async throws -> (RecurringState, Checkpoint?) {
        let result = try await store.append(to: Streams.recurring(id), expected: .exact(state.version),
                                            events: [try EventCatalog.encode(event, metadata: metadata)])
        var state = state
        state.evolve(event)
        return (state, result.checkpoint)
    }

    /// Makes `month`'s donation of a monthly donation, once: the donation's id is derived
    /// from the monthly donation and the month, so a second replica or a restart finds it
    /// made; the outcome is recorded in a stream of its own appended with `.noStream`.
    /// Returns nil when the month was run already or nothing is due.
    func runRecurring(_ id: UUID, month: Month) async throws -> RecurringDonationRun? {
        let runStream = Streams.recurringRun(id, month: month.description)
        guard try await store.version(of: runStream) == 0 else { return nil }
        let (events, _) = try await Streams.load(Streams.recurring(id), store: store)
        let state = RecurringState.replay(events.compactMap { $0 })
        guard let created = state.created, state.isDue(in: month) else { return nil }
        let donationId = UUID.derived("recurring", id.key, month.description)
        let metadata = EventMetadata(correlationId: donationId.key, actorId: created.accountId.key, service: "donations")
        let outcome: RecurringDonationRun.Outcome
        do {
            _ = try await donate(account: created.accountId, organization: created.organizationId.key, amountMinor: state.amountMinor,
                                 currency: created.currency, visibility: created.visibility, message: nil, donationId: donationId,
                                 recurring: (id, month), metadata: metadata)
            outcome = .donated
        } catch DonationsError.insufficientFunds {
            outcome = .insufficientFunds
        } catch is DonationsError {
            outcome = .refused
        }
        let run = RecurringDonationRun(recurringId: id, month: month.description, outcome: outcome,
                                       donationId: outcome == .donated ? donationId : nil, at: clock.now())
        do {
            _ = try await store.append(to: runStream, expected: .noStream, events: [try EventCatalog.encode(run, metadata: metadata)])
            return run
        } catch EventStoreError.wrongExpectedVersion {
            return nil  // another replica recorded this month first
        }
    }
}
