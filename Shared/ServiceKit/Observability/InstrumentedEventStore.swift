import EventLog
import Foundation
import Metrics

/// Wraps a store to record `commons_event_append_duration_seconds` per service.
public struct InstrumentedEventStore: EventStore {
    public let base: any EventStore
    private let appendTimer: Timer

    public init(_ base: any EventStore, service: String) {
        self.base = base
        appendTimer = Timer(label: "commons_event_append_duration_seconds", dimensions: [("service", service)], preferredDisplayUnit: .seconds)
    }

    public func append(to stream: String, expected: ExpectedVersion, events: [NewEvent]) async throws -> AppendResult {
        let start = ContinuousClock.now
        defer { appendTimer.recordInterval(since: start) }
        return try await base.append(to: stream, expected: expected, events: events)
    }

    public func read(stream: String, from version: Int64?, direction: ReadDirection, limit: Int) async throws -> [RecordedEvent] {
        try await base.read(stream: stream, from: version, direction: direction, limit: limit)
    }

    public func readAll(after checkpoint: Checkpoint, limit: Int, filter: EventFilter) async throws -> EventPage {
        try await base.readAll(after: checkpoint, limit: limit, filter: filter)
    }

    public func event(id: UUID) async throws -> RecordedEvent? { try await base.event(id: id) }
    public func head() async throws -> Checkpoint { try await base.head() }
    public func importEvents(_ events: [RecordedEvent]) async throws -> ImportResult { try await base.importEvents(events) }
    public var changes: ChangeSignal { base.changes }
    public var pollInterval: Duration { base.pollInterval }
    public func shutdown() async { await base.shutdown() }
}
