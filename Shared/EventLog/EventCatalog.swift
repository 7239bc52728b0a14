import Foundation

/// An event type that services publish: its stored name and the schema version it writes.
public protocol EventContract: Codable, Sendable {
    /// The name stored in the log's `type` field; never changes once shipped.
    static var eventType: String { get }
    /// The schema version this Swift type reads and writes; older versions are upcast.
    static var schemaVersion: Int { get }
}

extension EventContract {
    public static var schemaVersion: Int { 1 }
}

/// Turns an older stored version of an event into the current type.
public struct Upcaster<Current: EventContract>: Sendable {
    let fromVersion: Int
    let upcast: @Sendable (Data, JSONDecoder) throws -> Current

    /// Reads version `version` as `Old`, then converts it with `transform`.
    public static func from<Old: Decodable & SendableMetatype>(
        version: Int, as old: Old.Type, _ transform: @escaping @Sendable (Old) -> Current
    ) -> Upcaster {
        Upcaster(fromVersion: version) { data, decoder in transform(try decoder.decode(Old.self, from: data)) }
    }
}

/// Why a stored event could not become its Swift type.
public enum EventDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The type is known but this schema version has no upcaster.
    case unsupportedSchemaVersion(type: String, version: Int)
    /// The body does not decode as the type's schema.
    case malformedBody(type: String, version: Int, reason: String)

    public var description: String {
        switch self {
        case let .unsupportedSchemaVersion(type, version): "\(type) has no decoder for schema version \(version)"
        case let .malformedBody(type, version, reason): "\(type) v\(version) does not decode: \(reason)"
        }
    }
}

/// The one decode path for events: command handlers, projections, rebuilds and the CLI
/// all read stored events through a catalog, so every reader upcasts the same way.
/// Types it does not know decode to nil, so readers can skip them.
public struct EventCatalog: Sendable {
    private var decoders: [String: @Sendable (Int, Data) throws -> any EventContract] = [:]

    public init() {}

    /// The names of every registered type.
    public var eventTypes: Set<String> { Set(decoders.keys) }

    /// Registers `type` with upcasters for each older schema version still stored. A type
    /// that is ``PlainJSONReadable`` is read that way first, and by `JSONDecoder` when that
    /// declines.
    public mutating func register<E: EventContract>(_ type: E.Type, upcasters: [Upcaster<E>] = []) {
        let byVersion = Dictionary(upcasters.map { ($0.fromVersion, $0) }, uniquingKeysWith: { _, last in last })
        let plain = E.self as? any PlainJSONReadable.Type
        decoders[E.eventType] = { version, data in
            if version == E.schemaVersion, let plain, let event = data.withUnsafeBytes({ plain.init(plainJSON: $0) }) as? E {
                return event
            }
            let decoder = EventJSON.decoder()
            do {
                if version == E.schemaVersion { return try decoder.decode(E.self, from: data) }
                guard let upcaster = byVersion[version] else {
                    throw EventDecodingError.unsupportedSchemaVersion(type: E.eventType, version: version)
                }
                return try upcaster.upcast(data, decoder)
            } catch let error as DecodingError {
                throw EventDecodingError.malformedBody(type: E.eventType, version: version, reason: "\(error)")
            }
        }
    }

    /// Decodes a stored event to its current Swift type; nil when the type is not registered.
    public func decode(_ event: RecordedEvent) throws -> (any EventContract)? {
        guard let decode = decoders[event.type] else { return nil }
        return try decode(event.schemaVersion, event.data)
    }

    /// Encodes `event` for appending.
    public static func encode<E: EventContract>(_ event: E, id: UUID = .random(), metadata: EventMetadata = .init()) throws -> NewEvent {
        NewEvent(id: id, type: E.eventType, schemaVersion: E.schemaVersion, data: try EventJSON.encoder().encode(event), metadata: metadata)
    }
}

/// The JSON conventions of event bodies: ISO 8601 dates, sorted keys.
public enum EventJSON {
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// Whether two JSON documents are equal as values (key order and spacing aside).
    public static func sameValue(_ lhs: Data, _ rhs: Data) -> Bool {
        if lhs == rhs { return true }
        guard let left = try? JSONSerialization.jsonObject(with: lhs, options: [.fragmentsAllowed]),
            let right = try? JSONSerialization.jsonObject(with: rhs, options: [.fragmentsAllowed])
        else { return false }
        return NSArray(object: left).isEqual(NSArray(object: right))
    }

    /// Whether `data` is a JSON object.
    public static func isObject(_ data: Data) -> Bool {
        (try? JSONSerialization.jsonObject(with: data)) is [String: Any]
    }
}
