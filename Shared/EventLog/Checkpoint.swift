/// A reader's place in the global order of the log.
///
/// On PostgreSQL the global order is (transaction id, position): a reader only ever sees
/// transactions below the visibility horizon, so an event that commits late can never be
/// skipped. The embedded SQLite log serializes its writers, so there `transaction` is
/// always 0 and position alone is the order.
///
/// Checkpoints compare as numbers, field by field; their text form (`"812:1042"`) is
/// opaque to clients and only ever parsed back by ``init(_:)``.
public struct Checkpoint: Hashable, Sendable, Comparable, Codable, LosslessStringConvertible {
    /// The transaction that appended the event (PostgreSQL `xid8`), or 0 on SQLite.
    public var transaction: UInt64
    /// The event's position, unique across the log.
    public var position: Int64

    public init(transaction: UInt64, position: Int64) {
        self.transaction = transaction
        self.position = position
    }

    /// Before the first event.
    public static let start = Checkpoint(transaction: 0, position: 0)

    public static func < (lhs: Checkpoint, rhs: Checkpoint) -> Bool {
        (lhs.transaction, lhs.position) < (rhs.transaction, rhs.position)
    }

    public var description: String { "\(transaction):\(position)" }

    /// Parses the text form; a bare number is read as a position with transaction 0.
    public init?(_ description: String) {
        let parts = description.split(separator: ":", omittingEmptySubsequences: false)
        switch parts.count {
        case 1:
            guard let position = Int64(parts[0]), position >= 0 else { return nil }
            self.init(transaction: 0, position: position)
        case 2:
            guard let transaction = UInt64(parts[0]), let position = Int64(parts[1]), position >= 0 else { return nil }
            self.init(transaction: transaction, position: position)
        default:
            return nil
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let checkpoint = Checkpoint(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a checkpoint: \(text)")
        }
        self = checkpoint
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
