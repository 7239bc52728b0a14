import Foundation
import Logging

/// Writes one JSON object per log event to standard output: time (ISO 8601, UTC, to the
/// millisecond), level, label, message and metadata (request and correlation ids among
/// them). Metadata that is a number is written as a JSON number, so a log pipeline can sum
/// and compare it (`ms`, `status`, counts) without parsing strings.
public struct JSONLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String

    public init(label: String) {
        self.label = label
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = metadata.merging(metadataProvider?.get() ?? [:]) { $1 }.merging(event.metadata ?? [:]) { $1 }
        guard var line = Self.line(level: event.level, label: label, message: "\(event.message)", metadata: merged, at: Date()) else { return }
        line.append(0x0A)
        FileHandle.standardOutput.write(line)
    }

    private static let timeStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(identifier: "UTC")!)

    /// One log line's JSON (without its newline), keys sorted.
    static func line(level: Logger.Level, label: String, message: String, metadata: Logger.Metadata, at time: Date) -> Data? {
        var fields = metadata.mapValues(json)
        fields["time"] = time.formatted(timeStyle)
        fields["level"] = level.rawValue
        fields["logger"] = label
        fields["message"] = message
        return try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes])
    }

    /// A metadata value as JSON: numbers as numbers, lists and dictionaries as such, the rest as text.
    private static func json(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let text): return number(text) ?? text
        case .stringConvertible(let convertible): return number("\(convertible)") ?? "\(convertible)"
        case .array(let values): return values.map(json)
        case .dictionary(let values): return values.mapValues(json)
        }
    }

    /// The number `text` spells exactly ("42", "-7", "9231.82"), or nil: text that a
    /// number would change ("0123", "1e3", "nan", an id) stays text.
    private static func number(_ text: String) -> NSNumber? {
        if let integer = Int(text), String(integer) == text { return NSNumber(value: integer) }
        if text.contains("."), let double = Double(text), double.isFinite, "\(double)" == text { return NSNumber(value: double) }
        return nil
    }
}
