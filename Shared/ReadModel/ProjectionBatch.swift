import EventLog
import Foundation
import GRDB
import Tracing

/// An event that a projection failed to apply; the batch it was in was rolled back.
public struct ProjectionFailure: Error, CustomStringConvertible {
    public let projection: String
    public let event: RecordedEvent
    public let reason: String

    public var description: String {
        "projection \(projection) cannot apply event \(event.id) (\(event.type) at \(event.checkpoint)): \(reason)"
    }
}

/// A page of events with what a projection prepared of each (see ``Projection/prepare(_:)``),
/// parked events left out.
struct PreparedPage: Sendable {
    var page: EventPage
    var events: [(event: RecordedEvent, prepared: (any Sendable)?)]
}

extension Projection {
    /// Prepares the events of `page` that are not `parked`, opening sealed fields with `keys`.
    /// A failure is the event's, as in ``apply(_:to:skipping:keys:)``.
    /// The page is one ``KeyScope``: each owner's key is looked up once for all their events
    /// in it, and the keys its sealed values name are looked up together first (a failure of
    /// that look-up leaves each to be asked for on its own, as it would have been).
    func prepare(_ page: EventPage, skipping parked: Set<UUID>, keys: (any KeyVault)?) async throws -> PreparedPage {
        try await KeyScope.run {
            if let keys {
                if let stored = page.storedKeys { try? keys.rememberStoredKeys(stored) }
                let owners = page.events.lazy.filter { !parked.contains($0.id) }.flatMap { sealedKeyOwners(of: $0) }
                try? await keys.rememberKeys(of: Array(owners))
            }
            var events: [(event: RecordedEvent, prepared: (any Sendable)?)] = []
            events.reserveCapacity(page.events.count)
            for event in page.events where !parked.contains(event.id) {
                do {
                    events.append((event, try await prepare(event, keys: keys)))
                } catch {
                    throw ProjectionFailure(projection: name, event: event, reason: "\(error)")
                }
            }
            return PreparedPage(page: page, events: events)
        }
    }

    /// Applies a page in one transaction and advances the checkpoint in it; parked events
    /// are skipped (and still passed by the checkpoint). Live (not replaying), each event
    /// appended under a trace is applied in a span of that trace (``EventTrace``).
    func apply(_ page: EventPage, to pool: DatabasePool, skipping parked: Set<UUID>, keys: (any KeyVault)?, live: Bool = false) async throws {
        try await apply(try await prepare(page, skipping: parked, keys: keys), to: pool, traced: live && EventTrace.isOn)
    }

    /// Applies a prepared page in one transaction and advances the checkpoint in it.
    func apply(_ prepared: PreparedPage, to pool: DatabasePool, traced: Bool = false) async throws {
        try await pool.write { db in
            for (event, made) in prepared.events {
                let span = traced ? EventTrace.context(of: event.metadata).map { self.startSpan(applying: event, in: $0) } : nil
                defer { span?.end() }
                do {
                    try self.apply(event, prepared: made, in: db)
                } catch {
                    span?.recordError(error)
                    span?.setStatus(.init(code: .error))
                    throw ProjectionFailure(projection: self.name, event: event, reason: "\(error)")
                }
            }
            try ProjectionCheckpoints.save(db, projection: self.name, checkpoint: prepared.page.checkpoint)
        }
    }

    /// A span for applying `event`, a child of the span that appended it.
    private func startSpan(applying event: RecordedEvent, in context: ServiceContext) -> any Span {
        let span = Tracing.startSpan("apply \(event.type) to \(name)", context: context, ofKind: .consumer)
        span.attributes["commons.projection"] = name
        span.attributes["commons.event.id"] = event.id.lowercasedText
        span.attributes["commons.event.stream"] = event.stream
        span.attributes["commons.event.position"] = Int(event.checkpoint.position)
        return span
    }
}
