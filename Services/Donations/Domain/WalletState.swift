import Contracts
import EventLog
import Foundation

/// A wallet as its stream tells it: the balance in each currency is derived from the
/// movements, never stored.
public struct WalletState: Sendable, Equatable {
    /// One movement, as `GET /v1/wallet` lists it.
    public struct Entry: Sendable, Equatable, Codable {
        public enum Kind: String, Sendable, Codable { case topUp = "top-up", donation }
        public var id: UUID
        public var kind: Kind
        /// Positive for money in, negative for money out.
        public var amountMinor: Int
        public var currency: String
        public var organizationId: UUID?
        public var at: Date
    }

    public private(set) var version: Int64 = 0
    public private(set) var balances: [String: Int] = [:]
    /// Every movement, oldest first.
    public private(set) var entries: [Entry] = []
    private var donations: [UUID: DonationMade] = [:]
    private var topUps: Set<UUID> = []

    public init() {}

    public func balance(in currency: String) -> Int { balances[currency] ?? 0 }

    /// The donation with this id, if this wallet made it.
    public func donation(_ id: UUID) -> DonationMade? { donations[id] }

    public func hasTopUp(_ id: UUID) -> Bool { topUps.contains(id) }

    /// Applies the stream's next event; one this type does not know (nil) only counts.
    public mutating func evolve(_ event: (any EventContract)?) {
        switch event {
        case let topUp as WalletToppedUp:
            topUps.insert(topUp.topUpId)
            balances[topUp.currency, default: 0] += topUp.amountMinor
            entries.append(
                Entry(id: topUp.topUpId, kind: .topUp, amountMinor: topUp.amountMinor, currency: topUp.currency, organizationId: nil, at: topUp.at))
        case let donation as DonationMade:
            donations[donation.donationId] = donation
            balances[donation.currency, default: 0] -= donation.amountMinor
            entries.append(
                Entry(
                    id: donation.donationId, kind: .donation, amountMinor: -donation.amountMinor, currency: donation.currency,
                    organizationId: donation.organizationId, at: donation.at))
        default:
            break
        }
        version += 1
    }

    /// Checks that the wallet can pay `amountMinor` of `currency`.
    public func canPay(amountMinor: Int, currency: String) throws(DonationsError) {
        let balance = balance(in: currency)
        guard balance >= amountMinor else { throw .insufficientFunds(balanceMinor: balance, currency: currency) }
    }
}
