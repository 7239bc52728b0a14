/// What moved money in or out of a wallet (``Wallet/Entry``). A newer server may answer with
/// a kind this SDK does not know; it decodes too (see ``OpenEnum``).
public struct WalletEntryKind: OpenEnum {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Money added from a card.
    public static let topUp: Self = "top-up"
    /// A gift to an organisation.
    public static let donation: Self = "donation"

    public static let known: [Self] = [.topUp, .donation]
}
