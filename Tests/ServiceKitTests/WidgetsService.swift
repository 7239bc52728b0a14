import EventLog
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import ReadModel
import ServiceKit

/// A small service built on the kit, to test what every service gets from it.
enum WidgetsService {
    struct CreateWidget: Decodable {
        var name: String
        var count: Int
    }

    struct Widget: Codable, Equatable {
        var id: UUID
        var name: String
        var count: Int
        var version: Int64
    }

    struct WidgetsProjection: Projection {
        let name = "widgets"
        let filter = EventFilter(categories: ["widget"])

        func registerMigrations(in migrator: inout DatabaseMigrator) {
            migrator.registerMigration("widgets-v1") { db in
                try db.execute(
                    sql: "CREATE TABLE widgets (id TEXT PRIMARY KEY, name TEXT NOT NULL, count INTEGER NOT NULL, version INTEGER NOT NULL)")
            }
        }

        func apply(_ event: RecordedEvent, in db: Database) throws {
            let body = try JSONDecoder().decode([String: AnyCodableScalar].self, from: event.data)
            try db.execute(
                sql: """
                    INSERT INTO widgets (id, name, count, version) VALUES (?, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET name = excluded.name, count = excluded.count, version = excluded.version
                    """,
                arguments: [String(event.stream.dropFirst("widget-".count)), body["name"]?.text ?? "", body["count"]?.number ?? 0, event.version])
        }
    }

    static let definition = ServiceDefinition(
        name: "widgets", defaultPort: 0, projections: [WidgetsProjection()],
        openAPI: OpenAPIDocument(
            title: "Widgets",
            operations: [
                .init(
                    "POST", "/v1/widgets", "Make a widget.", authenticated: true,
                    body: .object(["name": .string(), "count": .integer], required: ["name", "count"]), responses: [201: "Made"]),
                .init("GET", "/v1/widgets/{id}", "Read a widget."),
                .init("PATCH", "/v1/widgets/{id}", "Rename a widget.", authenticated: true),
                .init("POST", "/v1/slow", "Takes half a second.", authenticated: true),
                .init("GET", "/v1/key-scope", "Whether the handler, and the stream it answers with, run in a key scope."),
                .init("GET", "/v1/admin/widgets", "Administrators only.", authenticated: true),
            ]
        ).administered(as: "widgets")
    ) { router, runtime in
        router.post("/v1/widgets") { request, context -> Response in
            _ = try context.requireIdentity()
            let input = try await request.decodeJSON(as: CreateWidget.self, context: context)
            var errors: [String: [String]] = [:]
            if input.name.isEmpty || input.name.count > 50 { errors["name", default: []].append("must be 1 to 50 characters") }
            if input.count < 0 { errors["count", default: []].append("must not be negative") }
            guard errors.isEmpty else { throw Problem.validation(errors) }
            let id = context.idempotentEventId(request.headers[.idempotencyKey])
            let data = try JSONSerialization.data(withJSONObject: ["name": input.name, "count": input.count])
            let result = try await runtime.store.append(
                to: "widget-\(id.uuidString.lowercased())", expected: .noStream,
                events: [NewEvent(id: id, type: "WidgetMade", data: data, metadata: context.eventMetadata)])
            return try .json(
                Widget(id: id, name: input.name, count: input.count, version: result.streamVersion), status: .created,
                version: result.streamVersion, position: result.checkpoint, location: "/v1/widgets/\(id.uuidString.lowercased())")
        }
        router.get("/v1/widgets/{id}") { _, context -> Response in
            let id = try context.parameters.uuid("id")
            let row = try runtime.readModel.pool.read { db in
                try Row.fetchOne(db, sql: "SELECT name, count, version FROM widgets WHERE id = ?", arguments: [id.uuidString.lowercased()])
            }
            guard let row else { throw Problem.notFound("No widget \(id).") }
            let widget = Widget(id: id, name: row["name"], count: row["count"], version: row["version"])
            return try .json(widget, version: widget.version)
        }
        router.patch("/v1/widgets/{id}") { request, context -> Response in
            _ = try context.requireIdentity()
            let id = try context.parameters.uuid("id")
            let expected = try request.requireIfMatch()
            let input = try await request.decodeJSON(as: CreateWidget.self, context: context)
            let data = try JSONSerialization.data(withJSONObject: ["name": input.name, "count": input.count])
            let stream = "widget-\(id.uuidString.lowercased())"
            let result = try await CommandHandler(store: runtime.store).handle(
                stream, ifMatch: expected,
                load: {
                    let version = try await runtime.store.version(of: stream)
                    guard version > 0 else { throw Problem.notFound() }
                    return ((), version)
                }
            ) { _, _ in
                .append([NewEvent(type: "WidgetRenamed", data: data, metadata: context.eventMetadata)]) { $0 }
            }
            return try .json(
                Widget(id: id, name: input.name, count: input.count, version: result.streamVersion),
                version: result.streamVersion, position: result.checkpoint)
        }
        router.post("/v1/slow") { request, context -> Response in
            _ = try context.requireIdentity()
            if let gate = request.headers[HTTPField.Name("X-Test-Gate")!] {
                await SlowGate.shared.hold(gate)
            } else {
                try await Task.sleep(for: .milliseconds(500))
            }
            return try .json(["done": UUID()], status: .created)
        }
        // Whether the handler, and then the body of the stream it answers with, run in a key scope.
        router.get("/v1/key-scope") { _, _ -> Response in
            let inHandler = KeyScope.current != nil
            return Response.serverSentEvents { sink in
                try await sink.send(.json(["handler": inHandler, "stream": KeyScope.current != nil], id: "1", name: "scope"))
            }
        }
        router.get("/v1/admin/widgets") { _, context -> [String: Int] in
            _ = try context.requireAdmin()
            return ["widgets": 0]
        }
    }
}

/// A JSON scalar for the test projection.
enum AnyCodableScalar: Decodable {
    case text(String)
    case number(Int)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) { self = .number(number) } else { self = .text(try container.decode(String.self)) }
    }

    var text: String? { if case .text(let text) = self { text } else { nil } }
    var number: Int? { if case .number(let number) = self { number } else { nil } }
}

/// Holds `POST /v1/slow` requests that carry an `X-Test-Gate` name until a test opens that
/// gate, and lets the test wait until one is inside: "still running" without guessing a delay.
actor SlowGate {
    static let shared = SlowGate()
    private var inside: Set<String> = []
    private var opened: Set<String> = []
    private var held: [String: [CheckedContinuation<Void, Never>]] = [:]

    func hold(_ gate: String) async {
        inside.insert(gate)
        guard !opened.contains(gate) else { return }
        await withCheckedContinuation { held[gate, default: []].append($0) }
    }

    /// Waits (polling, at most 30 s) until a request is held at `gate`.
    func waitUntilInside(_ gate: String) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !inside.contains(gate), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
    }

    func open(_ gate: String) {
        opened.insert(gate)
        for waiter in held.removeValue(forKey: gate) ?? [] { waiter.resume() }
    }
}
