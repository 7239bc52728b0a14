import Foundation

/// The JSON conventions of the API: camelCase keys, ISO 8601 UTC times (DESIGN.md §6).
enum CommonsJSON {
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            if let date = parseDate(text) { return date }
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(text) is not an ISO 8601 time")
        }
        return decoder
    }

    /// An ISO 8601 time, with or without fractional seconds.
    static func parseDate(_ text: String) -> Date? {
        let plain = ISO8601DateFormatter()
        if let date = plain.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }
}

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
