import EventLog
import Foundation
import Metrics
import ReadModel
import Tracing

/// Wraps a store to record `commons_event_append_duration_seconds` per service.
public struct InstrumentedEventStore: EventStore {
    public let base: any EventStore
    private let appendTimer: Timer

    public init(_ base: any EventStore, service: String) {
        self.base = base
        appendTimer = Timer(label: "commons_event_append_duration_seconds", dimensions: [("service", service)], preferredDisplayUnit: .seconds)
    }

    /// Appends through the base store; with tracing on, in a span whose `traceparent` each
    /// event carries in its metadata (``EventTrace``).
    public func append(to stream: String, expected: ExpectedVersion, events: [NewEvent]) async throws -> AppendResult {
        let start = ContinuousClock.now
        defer { appendTimer.recordInterval(since: start) }
        guard EventTrace.isOn else { return try await base.append(to: stream, expected: expected, events: events) }
        return try await withSpan("append to \(StreamName(stream)?.category ?? stream)", ofKind: .client) { span in
            span.attributes["commons.event.stream"] = stream
            span.attributes["commons.event.count"] = events.count
            span.attributes["commons.event.types"] = events.map(\.type).joined(separator: ",")
            let result = try await base.append(to: stream, expected: expected, events: EventTrace.stamped(events))
            span.attributes["commons.event.position"] = Int(result.checkpoint.position)
            return result
        }
    }

    public func read(stream: String, from version: Int64?, direction: ReadDirection, limit: Int) async throws -> [RecordedEvent] {
        try await base.read(stream: stream, from: version, direction: direction, limit: limit)
    }

    public func readAll(after checkpoint: Checkpoint, limit: Int, filter: EventFilter) async throws -> EventPage {
        try await base.readAll(after: checkpoint, limit: limit, filter: filter)
    }

    public func readAll(after checkpoint: Checkpoint, limit: Int, filter: EventFilter, keysNamedBy keyTypes: Set<String>) async throws -> EventPage {
        try await base.readAll(after: checkpoint, limit: limit, filter: filter, keysNamedBy: keyTypes)
    }

    public func readAllBackwards(before checkpoint: Checkpoint?, limit: Int, filter: EventFilter) async throws -> [RecordedEvent] {
        try await base.readAllBackwards(before: checkpoint, limit: limit, filter: filter)
    }

    public func event(id: UUID) async throws -> RecordedEvent? { try await base.event(id: id) }
    public func head() async throws -> Checkpoint { try await base.head() }
    public func hasReached(_ checkpoint: Checkpoint) async throws -> Bool { try await base.hasReached(checkpoint) }
    public func eventCount(after checkpoint: Checkpoint, limit: Int) async throws -> Int {
        try await base.eventCount(after: checkpoint, limit: limit)
    }
    public func importEvents(_ events: [RecordedEvent]) async throws -> ImportResult { try await base.importEvents(events) }
    public var changes: ChangeSignal { base.changes }
    public var pollInterval: Duration { base.pollInterval }
    public func shutdown() async { await base.shutdown() }
}
