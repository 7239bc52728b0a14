import Contracts
import DonationsDomain
import EventLog
import Foundation
import ServiceKit

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
        guard let organizationId = try await organizationId(idOrSlug) else {
            throw DonationsError.invalid(["organization": ["names no organisation"]])
        }
        let organization = try await organization(organizationId)
        guard organization.exists else { throw DonationsError.invalid(["organization": ["names no organisation"]]) }
        try organization.accepts(amountMinor: amountMinor, currency: currency)
        let now = clock.now()
        let created = RecurringDonationCreated(
            recurringId: recurringId, accountId: account, organizationId: organizationId, amountMinor: amountMinor,
            currency: currency, visibility: visibility, startMonth: Month(containing: now).description, at: now)
        if let result = try await handler.tryClaim(
            Streams.recurring(recurringId), at: 0,
            with: [try EventCatalog.encode(created, id: recurringId, metadata: metadata)])
        {
            return (RecurringState.replay([created]), result.checkpoint)
        }
        // The same Idempotency-Key again, from another replica: the one set up first stands.
        return (try await recurring(recurringId, of: account), try await store.head())
    }

    /// Changes the amount from the next monthly donation on.
    func changeRecurring(_ id: UUID, of account: UUID, amountMinor: Int, metadata: EventMetadata) async throws -> (RecurringState, Checkpoint?) {
        try await changeRecurring(id, of: account, metadata: metadata) { state in
            guard let created = state.created else { throw DonationsError.recurringNotFound }
            let organization = try await organization(created.organizationId)
            return try state.changeAmount(to: amountMinor, organization: organization, now: clock.now())
        }
    }

    func cancelRecurring(_ id: UUID, of account: UUID, metadata: EventMetadata) async throws -> (RecurringState, Checkpoint?) {
        try await changeRecurring(id, of: account, metadata: metadata) { state in try state.cancel(now: clock.now()) }
    }

    /// Appends what `decide` makes of `account`'s monthly donation; nothing when it makes nothing.
    private func changeRecurring<Event: EventContract>(
        _ id: UUID, of account: UUID, metadata: EventMetadata,
        _ decide: (RecurringState) async throws -> Event?
    ) async throws -> (RecurringState, Checkpoint?) {
        try await handler.handle(
            Streams.recurring(id),
            load: {
                let state = try await recurring(id, of: account)
                return (state, state.version)
            }
        ) { state, _ in
            guard let event = try await decide(state) else { return .answer((state, nil)) }
            return .append([try EventCatalog.encode(event, metadata: metadata)]) { result in
                var state = state
                state.evolve(event)
                return (state, result.checkpoint)
            }
        }
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
        let donationId = UUID.derived("recurring", id.lowercasedText, month.description)
        let metadata = EventMetadata(correlationId: donationId.lowercasedText, actorId: created.accountId.lowercasedText, service: "donations")
        let outcome: RecurringDonationRun.Outcome
        do {
            _ = try await donate(
                account: created.accountId, organization: created.organizationId.lowercasedText, amountMinor: state.amountMinor,
                currency: created.currency, visibility: created.visibility, message: nil, donationId: donationId,
                recurring: (id, month), metadata: metadata)
            outcome = .donated
        } catch DonationsError.insufficientFunds {
            outcome = .insufficientFunds
        } catch is DonationsError {
            outcome = .refused
        }
        let run = RecurringDonationRun(
            recurringId: id, month: month.description, outcome: outcome,
            donationId: outcome == .donated ? donationId : nil, at: clock.now())
        // Nil when another replica recorded this month first.
        return try await handler.tryClaim(runStream, at: 0, with: [try EventCatalog.encode(run, metadata: metadata)]).map { _ in run }
    }
}
