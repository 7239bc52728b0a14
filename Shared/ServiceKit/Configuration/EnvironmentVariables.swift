import Foundation

/// Reads configuration from environment variables, each with a default, and says in one
/// line what is wrong with a bad value.
public struct EnvironmentVariables: Sendable {
    public let values: [String: String]

    public init(_ values: [String: String] = ProcessInfo.processInfo.environment) {
        self.values = values
    }

    /// The value of `key`, or `defaultValue` when unset or empty.
    public func string(_ key: String, default defaultValue: String) -> String {
        guard let value = values[key], !value.isEmpty else { return defaultValue }
        return value
    }

    /// The optional value of `key`; nil when unset or empty.
    public func string(_ key: String) -> String? {
        guard let value = values[key], !value.isEmpty else { return nil }
        return value
    }

    /// An integer within `range`, or `defaultValue` when unset.
    public func integer(_ key: String, default defaultValue: Int, in range: ClosedRange<Int>) throws -> Int {
        guard let text = string(key) else { return defaultValue }
        guard let value = Int(text), range.contains(value) else {
            throw ConfigurationError(key: key, problem: "'\(text)' is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// The event log location from `COMMONS_EVENT_STORE` and `COMMONS_DATA_DIR` (default `./.commons`).
    public var eventStore: EventStoreLocation {
        EventStoreLocation(string("COMMONS_EVENT_STORE"), dataDirectory: dataDirectory)
    }

    /// Where read models and the embedded event log live: `COMMONS_DATA_DIR`, default `./.commons`.
    public var dataDirectory: String { string("COMMONS_DATA_DIR", default: ".commons") }
}
