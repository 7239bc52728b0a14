import DonationsDomain
import Foundation
import ServiceKit

/// What a card processor answered.
public enum PaymentOutcome: Sendable, Equatable {
    case approved(reference: String)
    case declined(reason: String)
}

/// Charges cards. A live deployment would talk to a processor; the simulated one moves no money.
public protocol PaymentProvider: Sendable {
    /// Charges `card`. `idempotencyKey` is the top-up's id: a processor charges a key once.
    func charge(_ card: CardNumber, amountMinor: Int, currency: String, idempotencyKey: UUID) async throws -> PaymentOutcome
    /// Whether no money really moves; receipts then say so.
    var isSimulated: Bool { get }
}

extension PaymentProvider {
    public var isSimulated: Bool { false }
}

/// `COMMONS_PAYMENTS`: which card processor the service charges top-ups with. Unset, there
/// is none and every top-up is refused (503, `payments-not-configured`), so a deployment
/// never takes pretend money for real; `simulated` runs ``SimulatedCardProcessor``, which
/// `commons up` and the tests choose. Any other value stops the service at start.
public enum PaymentsSetting {
    public static let key = "COMMONS_PAYMENTS"

    /// The processor `environment` names; nil when it names none.
    public static func provider(from environment: EnvironmentVariables) throws -> (any PaymentProvider)? {
        switch environment.string(key) {
        case nil: return nil
        case "simulated": return SimulatedCardProcessor()
        case let other?: throw ConfigurationError(key: key, problem: "'\(other)' is not a card processor Commons knows (unset, or simulated)")
        }
    }
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

    public var isSimulated: Bool { true }

    public func charge(_ card: CardNumber, amountMinor: Int, currency: String, idempotencyKey: UUID) async throws -> PaymentOutcome {
        switch card.digits {
        case Self.approvedCard: .approved(reference: "sim_" + idempotencyKey.lowercasedText.prefix(18))
        case Self.declinedCard: .declined(reason: "the card was declined")
        default: .declined(reason: "the simulated processor takes only its test cards (see docs/api.md, Donations)")
        }
    }
}
