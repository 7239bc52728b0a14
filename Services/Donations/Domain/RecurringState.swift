import Contracts
import EventLog
import Foundation

/// A monthly donation as its stream tells it.
public struct RecurringState: Sendable, Equatable {
    public private(set) var created: RecurringDonationCreated?
    public private(set) var amountMinor = 0
    public private(set) var cancelled = false
    public private(set) var version: Int64 = 0

    public init() {}

    public static func replay(_ events: [any EventContract]) -> RecurringState {
        var state = RecurringState()
        for event in events { state.evolve(event) }
        return state
    }

    public mutating func evolve(_ event: any EventContract) {
        switch event {
        case let created as RecurringDonationCreated:
            self.created = created
            amountMinor = created.amountMinor
        case let changed as RecurringDonationAmountChanged:
            amountMinor = changed.amountMinor
        case is RecurringDonationCancelled:
            cancelled = true
        default:
            break
        }
        version += 1
    }

    /// The state of `owner`'s monthly donation; someone else's is "not found".
    public func owned(by owner: UUID) throws(DonationsError) -> RecurringState {
        guard created?.accountId == owner else { throw .recurringNotFound }
        return self
    }

    public func changeAmount(
        to amountMinor: Int, organization: OrganizationState, now: Date
    ) throws(DonationsError) -> RecurringDonationAmountChanged? {
        guard let created else { throw .recurringNotFound }
        guard !cancelled else { throw .recurringCancelled }
        guard (1...Amounts.largestMinor).contains(amountMinor) else { throw .invalid(["amountMinor": ["must be a positive number of minor units"]]) }
        try organization.accepts(amountMinor: amountMinor, currency: created.currency)
        return amountMinor == self.amountMinor
            ? nil : RecurringDonationAmountChanged(recurringId: created.recurringId, amountMinor: amountMinor, at: now)
    }

    public func cancel(now: Date) throws(DonationsError) -> RecurringDonationCancelled? {
        guard let created else { throw .recurringNotFound }
        return cancelled ? nil : RecurringDonationCancelled(recurringId: created.recurringId, at: now)
    }

    /// Whether a donation is due for `month`: active, and the month is not before the first.
    public func isDue(in month: Month) -> Bool {
        guard let created, !cancelled, let start = Month(created.startMonth) else { return false }
        return month >= start
    }
}
