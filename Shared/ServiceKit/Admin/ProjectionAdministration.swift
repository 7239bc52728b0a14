import Codecs
import EventLog
import Foundation
import Hummingbird
import ReadModel

/// What every service lets its administrators see and do with its read model, under
/// `/v1/admin/<service>`: its projections with checkpoint, lag and parked events; parking
/// an event a projection cannot apply (skip) and taking it back (retry, applied by the next
/// replay); and replaying the read model from the log. Parking goes through the log
/// (``ProjectionParking``), with the administrator as the actor, exactly as `commons events
/// park` does; projections and replays are this replica's (the answer names it).
enum ProjectionAdministration {
    /// The longest reason for parking an event, in characters.
    static let maximumReasonLength = 500

    struct ProjectionsView: Encodable {
        var service: String
        /// The process that answered: with replicas, each has its own read model.
        var replica: String
        /// The log's head as this replica sees it.
        var head: String
        var projections: [ProjectionView]
        var replay: ReadModelReplay.Status?
    }

    struct ProjectionView: Encodable {
        var name: String
        var checkpoint: String
        var caughtUp: Bool
        /// Events in the log after the checkpoint, of every stream, up to 100,000 (the
        /// `commons_projection_lag_events` gauge).
        var lagEvents: Int
        /// The event the projection is halted on, with the error, until it applies or is parked.
        var stalledOn: String?
        var parked: [ParkedView]
    }

    struct ParkedView: Encodable, Comparable {
        var eventId: String
        var reason: String

        static func < (lhs: ParkedView, rhs: ParkedView) -> Bool { lhs.eventId < rhs.eventId }
    }

    struct ParkBody: Decodable {
        var eventId: String
        var reason: String
    }

    static let replica = "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier)"

    /// Adds the routes for the service `service` of `runtime`, whose replays `replay` runs.
    static func addRoutes(to router: Router<AppRequestContext>, service: String, runtime: ServiceRuntime, replay: ReadModelReplay) {
        let base = "/v1/admin/\(service)"

        router.get("\(base)/projections") { request, context in
            try requireAdminOrReplica(request, context, runtime)
            return try Response.json(try await view(service: service, runtime: runtime, replay: replay))
        }

        router.post("\(base)/projections/{projection}/parked") { request, context in
            _ = try context.requireAdmin()
            let projection = try projectionName(context, runtime)
            let body = try await request.decodeJSON(as: ParkBody.self, context: context)
            let reason = body.reason.trimmingWhitespaceAndNewlines()
            var errors: [String: [String]] = [:]
            let eventId = UUID(uuidString: body.eventId)
            if eventId == nil { errors["eventId"] = ["must be an event id (a UUID)"] }
            if !(1...maximumReasonLength).contains(reason.count) { errors["reason"] = ["must be 1 to \(maximumReasonLength) characters"] }
            guard let eventId, errors.isEmpty else { throw Problem.validation(errors) }
            let result = try await ProjectionParking.park(
                eventId, projection: projection, reason: reason, in: runtime.store,
                metadata: context.eventMetadata)
            return try Response.json(
                ParkedView(eventId: eventId.lowercasedText, reason: reason), status: .created,
                position: result.checkpoint)
        }

        router.delete("\(base)/projections/{projection}/parked/{eventId}") { _, context in
            _ = try context.requireAdmin()
            let projection = try projectionName(context, runtime)
            let eventId = try context.parameters.uuid("eventId")
            guard try await ProjectionParking.parked(for: projection, in: runtime.store)[eventId] != nil else {
                throw Problem.notFound("Event \(eventId.lowercasedText) is not parked for \(projection).")
            }
            let result = try await ProjectionParking.unpark(eventId, projection: projection, in: runtime.store, metadata: context.eventMetadata)
            return Response.empty(position: result.checkpoint)
        }

        router.post("\(base)/replay") { request, context in
            let actor = try requireAdminOrReplica(request, context, runtime)
            guard replay.start() else { throw Problem.conflict("A replay of this read model is running already.") }
            runtime.logger.notice("read model replay started", metadata: ["actorId": "\(actor)"])
            return try Response.json(replay.status, status: .accepted, location: "\(base)/projections")
        }
    }

    /// This replica's projections, the log's head and its latest replay.
    static func view(service: String, runtime: ServiceRuntime, replay: ReadModelReplay) async throws -> ProjectionsView {
        let head = try await runtime.store.head()
        var projections: [ProjectionView] = []
        for runner in runtime.runners {
            let status = runner.status
            let parked = try await ProjectionParking.parked(for: runner.projection.name, in: runtime.store)
            projections.append(
                ProjectionView(
                    name: runner.projection.name, checkpoint: status.checkpoint.description, caughtUp: status.isCaughtUp,
                    lagEvents: try await runtime.store.eventCount(after: status.checkpoint, limit: ProjectionRunner.lagCountLimit),
                    stalledOn: status.stalledOn,
                    parked: parked.map { ParkedView(eventId: $0.key.lowercasedText, reason: $0.value) }.sorted()))
        }
        return ProjectionsView(service: service, replica: replica, head: head.description, projections: projections, replay: replay.status)
    }

    /// An administrator, or another replica of this service asking for one (``ReplicaAdministration``),
    /// which names the administrator in `Commons-On-Behalf-Of`; who it is, for the log.
    @discardableResult
    static func requireAdminOrReplica(_ request: Request, _ context: AppRequestContext, _ runtime: ServiceRuntime) throws -> String {
        if runtime.replicaCredential.accepts(request.headers[ReplicaCredential.header]) {
            return request.headers[ReplicaAdministration.onBehalfOf].map { "\($0) (through another replica)" } ?? "another replica"
        }
        return try context.requireAdmin().accountId.lowercasedText
    }

    /// The `{projection}` of the path, if this service has it; 404 otherwise.
    private static func projectionName(_ context: AppRequestContext, _ runtime: ServiceRuntime) throws -> String {
        let name = context.parameters.get("projection") ?? ""
        guard runtime.runners.contains(where: { $0.projection.name == name }) else {
            throw Problem.notFound("This service has no projection \(name).")
        }
        return name
    }
}
