import Foundation
import Logging

/// Writes one JSON object per log event to standard output: time, level, label,
/// message and metadata (request and correlation ids among them).
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
        var fields: [String: String] = [:]
        let merged = metadata.merging(metadataProvider?.get() ?? [:]) { $1 }.merging(event.metadata ?? [:]) { $1 }
        for (key, value) in merged { fields[key] = "\(value)" }
        fields["time"] = Date().formatted(.iso8601)
        fields["level"] = event.level.rawValue
        fields["logger"] = label
        fields["message"] = "\(event.message)"
        guard var line = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        line.append(0x0A)
        FileHandle.standardOutput.write(line)
    }
}
