import Codecs
import Contracts
import EventLog
import Foundation
import GeoSearchDomain
import ServiceKit

/// Geo-search's only writes: a person's saved searches and how far they have read their
/// matches. Each is one event on the alert's or the reader's own stream, appended through
/// the one write path (``CommandHandler``).
package struct AlertCommands: Sendable {
    let handler: CommandHandler

    init(store: any EventStore) {
        handler = CommandHandler(store: store)
    }

    /// Saves a search whose criteria are already sealed for `owner`; the alert's stream must be new.
    func create(
        _ alertId: UUID, owner: UUID, criteria: Sealed, at now: Date, metadata: EventMetadata
    ) async throws
        -> (event: AlertCreated, result: AppendResult)
    {
        let created = AlertCreated(alertId: alertId, ownerId: owner, criteria: criteria, createdAt: now)
        let stream = Self.alertStream(alertId)
        let result = try await handler.start(
            stream, with: [try EventCatalog.encode(created, metadata: metadata)],
            orThrow: WriteConflict(stream: stream))
        return (created, result)
    }

    /// Deletes an alert that has only its first event; `nil` when another request deleted it meanwhile.
    func delete(_ alertId: UUID, owner: UUID, metadata: EventMetadata) async throws -> AppendResult? {
        let deleted = AlertDeleted(alertId: alertId, ownerId: owner)
        return try await handler.tryClaim(Self.alertStream(alertId), at: 1, with: [try EventCatalog.encode(deleted, metadata: metadata)])
    }

    /// Moves `owner`'s read marker of alert matches up to the match `upTo`.
    func markRead(owner: UUID, upTo: String, metadata: EventMetadata) async throws -> AppendResult {
        try await handler.record(
            [try EventCatalog.encode(AlertMatchesRead(ownerId: owner, upTo: upTo), metadata: metadata)],
            to: "alertreads-\(owner.lowercasedText)")
    }

    private static func alertStream(_ alertId: UUID) -> String { "alert-\(alertId.lowercasedText)" }
}
