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

extension PatchValue {
    /// The edit `key` names in `container`: nil when the key is absent (keep), `.clear` for
    /// JSON `null`, `.set` for a value. A synthesized decoder reads absent and `null` alike.
    public init?<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws {
        guard container.contains(key) else { return nil }
        self = try container.decodeNil(forKey: key) ? .clear : .set(try container.decode(Value.self, forKey: key))
    }
}

extension PatchValue {
    /// The same edit of a value of another type: `.clear` stays `.clear`.
    public func map<Other>(_ transform: (Value) -> Other) -> PatchValue<Other> {
        switch self {
        case .clear: .clear
        case .set(let value): .set(transform(value))
        }
    }
}
