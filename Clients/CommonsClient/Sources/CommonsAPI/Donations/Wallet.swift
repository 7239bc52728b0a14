import Foundation

/// A wallet: balances per currency and the most recent movements (`GET /v1/wallet`).
public struct Wallet: Codable, Sendable, Equatable {
    public struct Balance: Codable, Sendable, Equatable {
        public var currency: CurrencyCode
        public var amountMinor: Int

        public init(currency: CurrencyCode, amountMinor: Int) {
            self.currency = currency
            self.amountMinor = amountMinor
        }
    }

    public struct Entry: Codable, Sendable, Equatable {
        public var id: UUID
        public var kind: WalletEntryKind
        /// Positive in, negative out.
        public var amountMinor: Int
        public var currency: CurrencyCode
        public var organizationId: UUID?
        public var at: Date

        public init(id: UUID, kind: String, amountMinor: Int, currency: CurrencyCode, organizationId: UUID?, at: Date) {
            self.id = id
            self.kind = WalletEntryKind(rawValue: kind)
            self.amountMinor = amountMinor
            self.currency = currency
            self.organizationId = organizationId
            self.at = at
        }
    }

    public var balances: [Balance]
    /// Newest first.
    public var entries: [Entry]
    public var version: Int64

    public init(balances: [Balance], entries: [Entry], version: Int64) {
        self.balances = balances
        self.entries = entries
        self.version = version
    }

    /// The balance in `currency` (0 when there is none).
    public func balance(_ currency: CurrencyCode) -> Int { balances.first { $0.currency == currency }?.amountMinor ?? 0 }
}

/// `POST /v1/wallet/top-ups`: money from a card.
public struct NewTopUp: Codable, Sendable, Equatable {
    public var amountMinor: Int
    public var currency: CurrencyCode
    public var cardNumber: String

    public init(amountMinor: Int, currency: CurrencyCode, cardNumber: String) {
        self.amountMinor = amountMinor
        self.currency = currency
        self.cardNumber = cardNumber
    }
}

/// What a top-up answers: the movement and the balance after it (never the card number).
public struct TopUp: Codable, Sendable, Equatable {
    public var id: UUID
    public var amountMinor: Int
    public var currency: CurrencyCode
    public var balanceMinor: Int
    public var at: Date
    /// True when the server runs the simulated card processor: no money moved.
    public var simulated: Bool?

    public init(id: UUID, amountMinor: Int, currency: CurrencyCode, balanceMinor: Int, at: Date, simulated: Bool?) {
        self.id = id
        self.amountMinor = amountMinor
        self.currency = currency
        self.balanceMinor = balanceMinor
        self.at = at
        self.simulated = simulated
    }
}
