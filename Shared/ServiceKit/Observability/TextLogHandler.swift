import Foundation
import Logging

/// How a service writes its log (`COMMONS_LOG_FORMAT`).
public enum LogFormat: String, Sendable, CaseIterable {
    /// One JSON object a line, for a log pipeline: the default, and what containers use.
    case json
    /// One short line per event for a person at a terminal; `commons up` asks for it when its
    /// own output is a terminal.
    case text
}

/// Writes one line per log event for a person to read: the local time to the millisecond,
/// then a request as `GET /v1/listings → 201 in 12.4 ms`, anything else as its level (when
/// above info), message and metadata. The request id's first eight characters end the line,
/// enough to find its JSON twin or its other lines.
///
/// Health checks and metrics scrapes (`/health/…`, `/metrics`) are left out unless
/// `showsProbes`: a supervisor polls them every few seconds, and they would drown the rest.
public struct TextLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let showsProbes: Bool

    public init(showsProbes: Bool) {
        self.showsProbes = showsProbes
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = metadata.merging(metadataProvider?.get() ?? [:]) { $1 }.merging(event.metadata ?? [:]) { $1 }
        guard let line = Self.line(level: event.level, message: "\(event.message)", metadata: merged, at: Date(), showsProbes: showsProbes)
        else { return }
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    private static let timeStyle = Date.VerbatimFormatStyle(
        format:
            "\(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits):\(second: .twoDigits).\(secondFraction: .fractional(3))",
        timeZone: .current, calendar: Calendar(identifier: .gregorian))

    /// Metadata shown in a request's own words rather than as `key=value`.
    private static let requestKeys: Set<String> = ["method", "path", "status", "ms", "requestId", "correlationId"]

    /// The line for one event (without its newline), or nil for a probe that is not shown.
    static func line(
        level: Logger.Level, message: String, metadata: Logger.Metadata, at time: Date, showsProbes: Bool, timeZone: TimeZone = .current
    ) -> String? {
        var style = timeStyle
        style.timeZone = timeZone
        var parts = [time.formatted(style)]
        if level > .info { parts.append("\(level):") }
        let isRequest = message == "request" && metadata["method"] != nil && metadata["path"] != nil
        if isRequest {
            let path = "\(metadata["path"]!)"
            if !showsProbes && isProbe(path) { return nil }
            parts.append("\(metadata["method"]!) \(path)")
            if let status = metadata["status"] { parts.append("→ \(status)") }
            if let milliseconds = metadata["ms"].flatMap({ Double("\($0)") }) { parts.append("in \(readable(milliseconds: milliseconds))") }
        } else {
            parts.append(message)
        }
        let details =
            metadata
            .filter { !(isRequest && requestKeys.contains($0.key)) && $0.key != "requestId" && $0.key != "correlationId" }
            .sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value)" }
        parts.append(contentsOf: details)
        if let requestId = metadata["requestId"] { parts.append("[\("\(requestId)".prefix(8))]") }
        return parts.joined(separator: " ")
    }

    /// Whether `path` is polled by supervisors and scrapers rather than asked by a person.
    static func isProbe(_ path: String) -> Bool {
        path == "/metrics" || path == "/health" || path.hasPrefix("/health/")
    }

    /// `0.42 ms`, `12.4 ms`, `318 ms`, `2.41 s`: three significant figures at most.
    static func readable(milliseconds: Double) -> String {
        switch milliseconds {
        case ..<10: return String(format: "%.2f ms", milliseconds)
        case ..<100: return String(format: "%.1f ms", milliseconds)
        case ..<1_000: return String(format: "%.0f ms", milliseconds)
        default: return String(format: "%.2f s", milliseconds / 1_000)
        }
    }
}
