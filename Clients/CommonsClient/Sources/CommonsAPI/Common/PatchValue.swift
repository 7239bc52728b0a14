import Foundation

/// Encodes an optional as `null` when it is nil: in a PATCH, `null` clears a field while an
/// absent key keeps it.
public enum PatchValue<Value: Codable & Sendable>: Codable, Sendable {
    /// Clear the field.
    case clear
    /// Set the field.
    case set(Value)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self = container.decodeNil() ? .clear : .set(try container.decode(Value.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .clear: try container.encodeNil()
        case .set(let value): try container.encode(value)
        }
    }
}

extension PatchValue: Equatable where Value: Equatable {}

extension PatchValue {
    /// The value set, or nil for `.clear`.
    public var value: Value? {
        if case .set(let value) = self { value } else { nil }
    }
}
