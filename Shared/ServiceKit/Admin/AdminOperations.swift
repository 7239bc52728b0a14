extension OpenAPIDocument {
    /// This document with the kit's `/v1/admin/<service>` operations, which every service serves.
    public func administered(as service: String) -> OpenAPIDocument {
        OpenAPIDocument(title: title, operations: operations + ProjectionAdministration.operations(service: service))
    }
}

extension ProjectionAdministration {
    typealias Schema = OpenAPIDocument.Schema

    static let parked = Schema.object(["eventId": .string(format: "uuid"), "reason": .string()], required: ["eventId", "reason"])
    static let replayStatus = Schema.object(
        [
            "state": .oneOf(["running", "done", "failed"]), "startedAt": .string(format: "date-time"),
            "finishedAt": .string(format: "date-time"), "applied": .integer, "checkpoint": .string(), "error": .string(),
        ], required: ["state", "startedAt", "applied"]
    ).named("AdminReplayStatus")
    static let projections = Schema.object(
        [
            "service": .string(), "replica": .string(), "head": .string(),
            "projections": .array(
                .object(
                    [
                        "name": .string(), "checkpoint": .string(), "caughtUp": .boolean, "lagEvents": .integer, "stalledOn": .string(),
                        "parked": .array(parked),
                    ], required: ["name", "checkpoint", "caughtUp", "lagEvents", "parked"])),
            "replay": replayStatus,
        ], required: ["service", "replica", "head", "projections"]
    ).named("AdminProjections")

    static let replicas = Schema.object(
        [
            "service": .string(),
            "replicas": .array(.object(["address": .string(), "projections": projections, "error": .string()], required: ["address"])),
        ], required: ["service", "replicas"]
    ).named("AdminReplicas")
    static let replicaReplays = Schema.object(
        ["replicas": .array(.object(["address": .string(), "status": .integer, "error": .string()], required: ["address"]))],
        required: ["replicas"]
    ).named("AdminReplicaReplays")

    /// The operations of ``addRoutes(to:service:runtime:replay:)`` for `service`.
    static func operations(service: String) -> [OpenAPIDocument.Operation] {
        let base = "/v1/admin/\(service)"
        let notAdmin = OpenAPIDocument.forbiddenDescription
        return [
            .init(
                "GET", "\(base)/projections",
                "This replica's projections: checkpoint, lag, the event one is halted on, parked events; the latest replay (admins).",
                authenticated: true, responses: [200: "OK", 403: notAdmin], returns: [200: projections]),
            .init(
                "POST", "\(base)/projections/{projection}/parked",
                "Park an event the projection cannot apply, so that it skips it (admins; recorded in the log).", authenticated: true,
                body: .object(
                    ["eventId": .string(format: "uuid"), "reason": .string(minLength: 1, maxLength: maximumReasonLength)],
                    required: ["eventId", "reason"]),
                responses: [201: "Parked", 403: notAdmin, 404: "No such projection or event", 422: "Invalid fields"],
                returns: [201: parked]),
            .init(
                "DELETE", "\(base)/projections/{projection}/parked/{eventId}",
                "Take a parked event back: the next replay applies it (admins; recorded in the log).", authenticated: true,
                responses: [204: "Taken back", 403: notAdmin, 404: "No such projection, or the event is not parked"]),
            .init(
                "POST", "\(base)/replay",
                "Replay this replica's read model from the log into a new file, then swap it in; the live one serves meanwhile (admins).",
                authenticated: true, responses: [202: "Started", 403: notAdmin, 409: "A replay is running already"],
                returns: [202: replayStatus]),
            .init(
                "GET", "\(base)/replicas",
                "Every replica (COMMONS_PEERS) with its projections, or its error (admins).",
                authenticated: true, responses: [200: "OK", 403: notAdmin], returns: [200: replicas]),
            .init(
                "POST", "\(base)/replicas/replay",
                "Replay every replica, or the one at address; each one's status (admins).",
                authenticated: true, query: [OpenAPIDocument.Parameter("address", .string(maxLength: 300))],
                responses: [202: "Asked", 403: notAdmin, 404: "No such replica"], returns: [202: replicaReplays]),
            .init(
                "GET", "\(base)/snapshot",
                "This replica's read model as a SQLite file, for a new replica (Commons-Replica-Credential only).",
                responses: [200: "The read model", 403: notAdmin]
            ).answering(ReadModelSnapshotRoute.mediaType),
        ]
    }
}

extension EventLogBrowser {
    typealias Schema = OpenAPIDocument.Schema
    typealias Parameter = OpenAPIDocument.Parameter

    static let eventView = Schema.object(
        [
            "event": .object(
                [
                    "position": .integer, "checkpoint": .string(), "stream": .string(), "version": .integer, "id": .string(format: "uuid"),
                    "type": .string(), "schemaVersion": .integer, "data": .anyValue, "metadata": .map(.string()),
                    "recordedAt": .string(format: "date-time"),
                ], required: ["position", "checkpoint", "stream", "version", "id", "type", "schemaVersion", "data", "metadata", "recordedAt"]),
            "personalData": .array(.object(["keyId": .string(format: "uuid"), "state": .oneOf(["sealed", "gone"])], required: ["keyId", "state"])),
        ], required: ["event", "personalData"]
    ).named("AdminEventView")

    /// The operations of ``addRoutes(to:runtime:)``.
    public static let operations: [OpenAPIDocument.Operation] = {
        let notAdmin = OpenAPIDocument.forbiddenDescription
        let names = Schema.string(minLength: 1, maxLength: 2_100)
        return [
            .init(
                "GET", "/v1/admin/log/events",
                "The log by comma-separated category and type, limit (admins): order=oldest (the default) reads in log order "
                    + "after a checkpoint (after); order=newest reads newest first, before a checkpoint (before), paging back with next. "
                    + "Sealed personal data stays sealed; each sealed value says whether its key still exists.",
                authenticated: true,
                query: [
                    Parameter("order", .oneOf(EventLogBrowser.Order.allCases.map(\.rawValue))), Parameter("after", .string(maxLength: 41)),
                    Parameter("before", .string(maxLength: 41)), Parameter("category", names), Parameter("type", names),
                    .limit(1...maximumLimit),
                ],
                responses: [200: "A page", 403: notAdmin, 400: "Invalid query"],
                returns: [200: .object(["events": .array(eventView), "next": .string(), "more": .boolean], required: ["events", "next", "more"])]),
            .init(
                "GET", "/v1/admin/log/events/{id}", "One event with its body and metadata (admins).", authenticated: true,
                responses: [200: "OK", 403: notAdmin, 404: "No such event"], returns: [200: eventView]),
            .init(
                "GET", "/v1/admin/log/streams/{stream}", "One stream's history from a version (from), limit (admins).",
                authenticated: true, query: [Parameter("from", .integer(1...Int(Int64.max))), .limit(1...maximumLimit)],
                responses: [200: "OK", 403: notAdmin, 404: "No such stream", 400: "Invalid query"],
                returns: [200: .object(["stream": .string(), "events": .array(eventView), "next": .integer], required: ["stream", "events"])]),
        ]
    }()
}
