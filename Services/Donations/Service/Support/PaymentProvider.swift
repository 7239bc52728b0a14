import DonationsDomain
import Foundation

/// What a card processor answered.
public enum PaymentOutcome: Sendable, Equatable {
    case approved(reference: String)
    case declined(reason: String)
}

/// Charges cards. The live service would talk to a processor; the local one simulates it.
public protocol PaymentProvider: Sendable {
    /// Charges `card`. `idempotencyKey` is the top-up's id: a processor charges a key once.
    func charge(_ card: CardNumber, amountMinor: Int, currency: String, idempotencyKey: UUID) async throws -> PaymentOutcome
}

/// A local stand-in for a card processor, for development, demos and tests. It knows two
/// test cards and declines every other number:
///
/// | card number | answer |
/// |---|---|
/// | `4242 4242 4242 4242` | approved |
/// | `4000 0000 0000 0002` | declined ("the card was declined") |
public struct SimulatedCardProcessor: PaymentProvider {
    public static let approvedCard = "4242424242424242"
    public static let declinedCard = "4000000000000002"

    public init() {}

    public func charge(_ card: CardNumber, amountMinor: Int, currency: String, idempotencyKey: UUID) async throws -> PaymentOutcome {
        switch card.digits {
        case Self.approvedCard: .approved(reference: "sim_" + idempotencyKey.uuidString.lowercased().prefix(18))
        case Self.declinedCard: .declined(reason: "the card was declined")
        default: .declined(reason: "the simulated processor takes only its test cards (see the README)")
        }
    }
}
