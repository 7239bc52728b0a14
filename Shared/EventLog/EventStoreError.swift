import Foundation

/// The errors every ``EventStore`` reports in the same way, whatever its backend.
public enum EventStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The stream was not at the expected version; nothing was written.
    case wrongExpectedVersion(stream: String, expected: ExpectedVersion, actual: Int64)
    /// Some of the batch's ids are stored already, but not as this exact batch in this
    /// stream (a partial retry, or the same id with another body); nothing was written.
    case idempotencyConflict(stream: String, eventId: UUID, reason: String)
    /// The stream name is not `<category>-<id>`.
    case invalidStreamName(String)
    /// An event's body or metadata is not a JSON object.
    case invalidEvent(id: UUID, reason: String)
    /// An import met an event that conflicts with what the log holds.
    case importConflict(eventId: UUID, reason: String)

    public var description: String {
        switch self {
        case let .wrongExpectedVersion(stream, expected, actual):
            "stream \(stream) expected at \(expected) but is at version \(actual)"
        case let .idempotencyConflict(stream, eventId, reason):
            "event \(eventId) in stream \(stream): \(reason)"
        case let .invalidStreamName(name):
            "'\(name)' is not a stream name of the form <category>-<id>"
        case let .invalidEvent(id, reason):
            "event \(id): \(reason)"
        case let .importConflict(eventId, reason):
            "import of event \(eventId): \(reason)"
        }
    }
}
