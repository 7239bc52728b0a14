/// Who and what caused an event. Every field is optional so that tools and imports can
/// append without inventing values; services fill all of them.
public struct EventMetadata: Hashable, Sendable, Codable {
    /// Shared by every event that one user action caused, across services.
    public var correlationId: String?
    /// The id of the event or request that directly caused this one.
    public var causationId: String?
    /// The account that acted, if any.
    public var actorId: String?
    /// The HTTP request that appended the event, if any.
    public var requestId: String?
    /// The executable that appended the event, e.g. `listings`.
    public var service: String?
    /// The W3C `traceparent` of the span that appended the event, when tracing is on: the
    /// projections that apply the event continue that trace.
    public var traceparent: String?

    public init(
        correlationId: String? = nil, causationId: String? = nil, actorId: String? = nil,
        requestId: String? = nil, service: String? = nil, traceparent: String? = nil
    ) {
        self.correlationId = correlationId
        self.causationId = causationId
        self.actorId = actorId
        self.requestId = requestId
        self.service = service
        self.traceparent = traceparent
    }
}
