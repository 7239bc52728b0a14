import EventLog
import Foundation
import GRDB

/// An event that a projection failed to apply; the batch it was in was rolled back.
public struct ProjectionFailure: Error, CustomStringConvertible {
    public let projection: String
    public let event: RecordedEvent
    public let reason: String

    public var description: String {
        "projection \(projection) cannot apply event \(event.id) (\(event.type) at \(event.checkpoint)): \(reason)"
    }
}

extension Projection {
    /// Applies a page in one transaction and advances the checkpoint in it; parked events
    /// are skipped (and still passed by the checkpoint).
    func apply(_ page: EventPage, to pool: DatabasePool, skipping parked: Set<UUID>) async throws {
        try await pool.write { db in
            for event in page.events where !parked.contains(event.id) {
                do {
                    try self.apply(event, in: db)
                } catch {
                    throw ProjectionFailure(projection: self.name, event: event, reason: "\(error)")
                }
            }
            try ProjectionCheckpoints.save(db, projection: self.name, checkpoint: page.checkpoint)
        }
    }
}
