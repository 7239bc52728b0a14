import Contracts
import EventLog
import Foundation

/// Parking lets an operator set aside an event that a projection cannot handle, instead
/// of halting that projection forever. Parking is itself recorded in the log, in stream
/// `parking-<projection>`, with the reason, so every replica and every rebuild honours it.
public enum ProjectionParking {
    /// Why an event cannot be parked.
    public enum Refusal: Error, Equatable {
        /// The log holds no event with this id (most likely a typo).
        case noSuchEvent(UUID)
        /// The event is of a type no projection may skip (``Unparkable``).
        case unparkable(type: String, reason: String)
    }

    /// Records that `projection` should skip `eventId`; ``Refusal`` when the log holds no
    /// such event or it is one no projection may skip.
    @discardableResult
    public static func park(
        _ eventId: UUID, projection: String, reason: String, in store: any EventStore, metadata: EventMetadata = .init()
    ) async throws -> AppendResult {
        guard let parked = try await store.event(id: eventId) else { throw Refusal.noSuchEvent(eventId) }
        if let why = Unparkable.reasons[parked.type] { throw Refusal.unparkable(type: parked.type, reason: why) }
        let event = try EventCatalog.encode(EventParked(projection: projection, eventId: eventId, reason: reason), metadata: metadata)
        return try await store.append(to: parkingStream(for: projection), expected: .any, events: [event])
    }

    /// Takes a parked event back; the next rebuild applies it again.
    @discardableResult
    public static func unpark(
        _ eventId: UUID, projection: String, in store: any EventStore, metadata: EventMetadata = .init()
    ) async throws -> AppendResult {
        let event = try EventCatalog.encode(EventUnparked(projection: projection, eventId: eventId), metadata: metadata)
        return try await store.append(to: parkingStream(for: projection), expected: .any, events: [event])
    }

    /// The events `projection` skips now, with their reasons.
    public static func parked(for projection: String, in store: any EventStore) async throws -> [UUID: String] {
        var parked: [UUID: String] = [:]
        for event in try await store.read(stream: parkingStream(for: projection)) {
            switch try CommonsEvents.catalog.decode(event) {
            case let parking as EventParked: parked[parking.eventId] = parking.reason
            case let unparking as EventUnparked: parked[unparking.eventId] = nil
            default: continue
            }
        }
        return parked
    }
}
