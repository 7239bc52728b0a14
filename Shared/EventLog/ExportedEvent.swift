import Foundation

/// One line of an event export (NDJSON): everything an import needs to append the event
/// again in another log, on either backend.
///
/// On the wire `data` and `metadata` are JSON objects inline, `id` is a lowercase UUID and
/// `recordedAt` is ISO 8601 in UTC with microseconds (``timestamp(_:)``). The encoding does
/// not depend on the encoder's strategies; ``encoder(pretty:)`` gives one whose output is the
/// same every time. `position` and `checkpoint` say where the event stood in the log it came
/// from; an import assigns new ones.
public struct ExportedEvent: Codable, Hashable, Sendable {
    /// The event's position in the source log.
    public var position: Int64
    /// The event's checkpoint in the source log, in its text form (`"812:1042"`).
    public var checkpoint: String
    public var stream: String
    public var version: Int64
    public var id: UUID
    public var type: String
    public var schemaVersion: Int
    /// The event's body as JSON bytes; a round trip keeps its value (key order and
    /// spacing aside), numbers included.
    public var data: Data
    public var metadata: EventMetadata
    /// Server time of the original append; an import keeps it.
    public var recordedAt: Date

    /// The export line of `event`.
    public init(_ event: RecordedEvent) {
        position = event.position
        checkpoint = event.checkpoint.description
        stream = event.stream
        version = event.version
        id = event.id
        type = event.type
        schemaVersion = event.schemaVersion
        data = event.data
        metadata = event.metadata
        recordedAt = event.recordedAt
    }

    /// An encoder for export lines: sorted keys and unescaped slashes; `pretty` for people.
    public static func encoder(pretty: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// A time as exports write it: ISO 8601, UTC, six fractional digits, e.g. `2025-01-02T03:04:05.678901Z`.
    public static func timestamp(_ date: Date) -> String { ExportedTime.format(date) }

    /// The event as a log returns it, ready for ``EventStore/importEvents(_:)``.
    /// - Throws: when `checkpoint` is not a checkpoint or `data` is not a JSON object.
    public func recordedEvent() throws -> RecordedEvent {
        guard let parsed = Checkpoint(checkpoint) else {
            throw ExportFormatError("event \(id): '\(checkpoint)' is not a checkpoint")
        }
        guard EventJSON.isObject(data) else { throw ExportFormatError("event \(id): data is not a JSON object") }
        return RecordedEvent(
            checkpoint: parsed, stream: stream, version: version, id: id, type: type, schemaVersion: schemaVersion,
            data: data, metadata: metadata, recordedAt: recordedAt)
    }

    private enum CodingKeys: String, CodingKey {
        case position, checkpoint, stream, version, id, type, schemaVersion, data, metadata, recordedAt
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        position = try container.decode(Int64.self, forKey: .position)
        checkpoint = try container.decode(String.self, forKey: .checkpoint)
        stream = try container.decode(String.self, forKey: .stream)
        version = try container.decode(Int64.self, forKey: .version)
        let idText = try container.decode(String.self, forKey: .id)
        guard let id = UUID(uuidString: idText) else {
            throw DecodingError.dataCorruptedError(forKey: .id, in: container, debugDescription: "'\(idText)' is not a UUID")
        }
        self.id = id
        type = try container.decode(String.self, forKey: .type)
        schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
        let body = try container.decode(JSONValue.self, forKey: .data)
        guard case .object = body else {
            throw DecodingError.dataCorruptedError(forKey: .data, in: container, debugDescription: "data is not a JSON object")
        }
        data = try ExportedEvent.encoder().encode(body)
        metadata = try container.decode(EventMetadata.self, forKey: .metadata)
        let time = try container.decode(String.self, forKey: .recordedAt)
        guard let recordedAt = ExportedTime.parse(time) else {
            throw DecodingError.dataCorruptedError(forKey: .recordedAt, in: container, debugDescription: "'\(time)' is not an ISO 8601 time")
        }
        self.recordedAt = recordedAt
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(position, forKey: .position)
        try container.encode(checkpoint, forKey: .checkpoint)
        try container.encode(stream, forKey: .stream)
        try container.encode(version, forKey: .version)
        try container.encode(id.uuidString.lowercased(), forKey: .id)
        try container.encode(type, forKey: .type)
        try container.encode(schemaVersion, forKey: .schemaVersion)
        try container.encode(try JSONDecoder().decode(JSONValue.self, from: data), forKey: .data)
        try container.encode(metadata, forKey: .metadata)
        try container.encode(ExportedTime.format(recordedAt), forKey: .recordedAt)
    }
}

/// A line of an export that cannot be imported.
public struct ExportFormatError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Any JSON value, so that an event's body can sit inline in an export line.
///
/// Numbers go through `Int64`, then `Decimal` (which keeps up to 38 significant digits
/// exactly, as PostgreSQL's jsonb does), and only then `Double` (for exponents beyond
/// Decimal's range), so a round trip does not round a body's numbers.
private enum JSONValue: Codable {
    case null
    case bool(Bool)
    case integer(Int64)
    case decimal(Decimal)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: Key.self) {
            var members: [String: JSONValue] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(JSONValue.self, forKey: key) }
            self = .object(members)
        } else if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
        } else {
            let value = try decoder.singleValueContainer()
            if value.decodeNil() {
                self = .null
            } else if let bool = try? value.decode(Bool.self) {
                self = .bool(bool)
            } else if let string = try? value.decode(String.self) {
                self = .string(string)
            } else if let integer = try? value.decode(Int64.self) {
                self = .integer(integer)
            } else if let decimal = try? value.decode(Decimal.self), !decimal.isNaN {
                self = .decimal(decimal)
            } else {
                self = .double(try value.decode(Double.self))
            }
        }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .object(let members):
            var object = encoder.container(keyedBy: Key.self)
            for (key, member) in members { try object.encode(member, forKey: Key(stringValue: key)) }
        case .array(let elements):
            var array = encoder.unkeyedContainer()
            for element in elements { try array.encode(element) }
        case .null:
            var value = encoder.singleValueContainer()
            try value.encodeNil()
        case .bool(let bool):
            var value = encoder.singleValueContainer()
            try value.encode(bool)
        case .integer(let integer):
            var value = encoder.singleValueContainer()
            try value.encode(integer)
        case .decimal(let decimal):
            var value = encoder.singleValueContainer()
            try value.encode(decimal)
        case .double(let double):
            var value = encoder.singleValueContainer()
            try value.encode(double)
        case .string(let string):
            var value = encoder.singleValueContainer()
            try value.encode(string)
        }
    }
}

/// `recordedAt` on the wire: ISO 8601, UTC, six fractional digits (PostgreSQL keeps
/// microseconds, and Foundation's ISO 8601 style only writes milliseconds).
enum ExportedTime {
    static func format(_ date: Date) -> String {
        var seconds = date.timeIntervalSince1970.rounded(.down)
        var micros = Int(((date.timeIntervalSince1970 - seconds) * 1_000_000).rounded())
        if micros == 1_000_000 {
            seconds += 1
            micros = 0
        }
        let whole = Date(timeIntervalSince1970: seconds).formatted(.iso8601) // "2025-01-02T03:04:05Z"
        let fraction = String(micros)
        return "\(whole.dropLast()).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)Z"
    }

    /// Reads an ISO 8601 UTC time with any number of fractional digits, or none.
    static func parse(_ text: String) -> Date? {
        guard text.hasSuffix("Z") else { return nil }
        let body = text.dropLast()
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = try? Date(parts[0] + "Z", strategy: .iso8601) else { return nil }
        guard parts.count == 2 else { return whole }
        let digits = parts[1]
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
            let fraction = Double("0." + digits)
        else { return nil }
        return Date(timeIntervalSince1970: whole.timeIntervalSince1970 + fraction)
    }
}
