import EventLog
import Foundation

/// An operator set aside an event that a projection cannot handle, so that the projection
/// goes on with the rest. Stream: `parking-<projection>`.
public struct EventParked: EventContract, Equatable {
    public static let eventType = "EventParked"
    public var projection: String
    public var eventId: UUID
    public var reason: String

    public init(projection: String, eventId: UUID, reason: String) {
        self.projection = projection
        self.eventId = eventId
        self.reason = reason
    }
}

/// An operator took a parked event back; a rebuild applies it again. Stream: `parking-<projection>`.
public struct EventUnparked: EventContract, Equatable {
    public static let eventType = "EventUnparked"
    public var projection: String
    public var eventId: UUID

    public init(projection: String, eventId: UUID) {
        self.projection = projection
        self.eventId = eventId
    }
}

/// The stream that records which of a projection's events are parked.
public func parkingStream(for projection: String) -> String { "parking-\(projection)" }
