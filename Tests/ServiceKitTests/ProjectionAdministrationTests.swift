import Codecs
import Contracts
import EventLog
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ReadModel
import ServiceKit
import Testing

/// `/v1/admin/<service>`: what every service lets administrators see and do with its read model.
@Suite("administering a service's read model")
struct ProjectionAdministrationTests {
    @Test(
        "admins see each projection's checkpoint, lag and parked events; parking skips an event in a replay, taking it back restores it; both are audited in the log"
    )
    func parkReplayUnpark() async throws {
        let kit = try await KitHarness()
        let adminId = UUID()
        let admin = try await kit.token(account: adminId, role: .admin)
        let member = try await kit.token()
        try await kit.test { client, runtime, _ in
            let made = try await client.execute(
                uri: "/v1/widgets", method: .post, headers: .json(token: member),
                body: ByteBuffer(string: #"{"name":"gear","count":2}"#))
            #expect(made.status == .created)
            let widget = try #require(made.json["id"] as? String).lowercased()
            let madePosition = try #require(made.headers[.commonsPosition])
            let eventId = try #require(try await runtime.store.read(stream: "widget-\(widget)").first?.id)
            let event = eventId.uuidString.lowercased()

            func call(_ method: HTTPRequest.Method, _ uri: String, token: String?, body: String? = nil) async throws -> TestResponse {
                try await client.execute(
                    uri: uri, method: method, headers: .json(token: token, [.commonsMinPosition: madePosition]),
                    body: body.map { ByteBuffer(string: $0) })
            }
            func call(_ method: HTTPRequest.Method, _ uri: String, body: String? = nil) async throws -> TestResponse {
                try await call(method, uri, token: admin, body: body)
            }
            func projections() async throws -> [String: Any] { try await call(.get, "/v1/admin/widgets/projections").json }
            func widgetsProjection() async throws -> [String: Any] {
                let all = try await projections()["projections"] as? [[String: Any]] ?? []
                return all.first { $0["name"] as? String == "widgets" } ?? [:]
            }
            func replayed() async throws {
                #expect(try await call(.post, "/v1/admin/widgets/replay").status == .accepted)
                for _ in 0..<600 {
                    let replay = try await projections()["replay"] as? [String: Any]
                    if replay?["state"] as? String != "running" {
                        #expect(replay?["state"] as? String == "done", "\(replay ?? [:])")
                        return
                    }
                    try await Task.sleep(for: .milliseconds(100))
                }
                Issue.record("the replay did not end within 60 s")
            }

            #expect(try await call(.get, "/v1/admin/widgets/projections", token: nil).status == .unauthorized)
            #expect(try await call(.get, "/v1/admin/widgets/projections", token: member).status == .forbidden)
            #expect(try await call(.post, "/v1/admin/widgets/replay", token: member).status == .forbidden)

            let status = try await projections()
            #expect(status["service"] as? String == "widgets")
            #expect(Checkpoint(status["head"] as? String ?? "") != nil)
            let names = (status["projections"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            #expect(Set(names) == ["widgets", "revocations"])
            #expect(try await widgetsProjection()["parked"] as? [Any] != nil)
            #expect((try await widgetsProjection()["parked"] as? [Any])?.isEmpty == true)
            #expect(status["replay"] == nil, "no replay yet")

            // Bad requests name what is wrong.
            let invalid = try await call(.post, "/v1/admin/widgets/projections/widgets/parked", body: #"{"eventId":"x","reason":" "}"#)
            #expect(invalid.status == .unprocessableContent)
            #expect(Set(invalid.fieldErrors.keys) == ["eventId", "reason"])
            #expect(
                try await call(
                    .post, "/v1/admin/widgets/projections/gadgets/parked",
                    body: #"{"eventId":"\#(event)","reason":"bad"}"#
                ).status == .notFound)
            #expect(
                try await call(
                    .post, "/v1/admin/widgets/projections/widgets/parked",
                    body: #"{"eventId":"\#(UUID())","reason":"bad"}"#
                ).status == .notFound)

            // Parked: the replay skips the event, so the widget is not in the new read model.
            let parked = try await call(.post, "/v1/admin/widgets/projections/widgets/parked", body: #"{"eventId":"\#(event)","reason":"bad data"}"#)
            #expect(parked.status == .created)
            #expect(parked.headers[.commonsPosition] != nil)
            let listed = try await widgetsProjection()["parked"] as? [[String: String]]
            #expect(listed == [["eventId": event, "reason": "bad data"]])
            let audit = try await runtime.store.read(stream: parkingStream(for: "widgets"))
            #expect(audit.last?.metadata.actorId == adminId.uuidString.lowercased(), "the administrator is the actor")
            try await replayed()
            #expect(try await call(.get, "/v1/widgets/\(widget)").status == .notFound)

            // Taken back: the next replay applies it again.
            #expect(try await call(.delete, "/v1/admin/widgets/projections/widgets/parked/\(event)").status == .noContent)
            #expect(try await call(.delete, "/v1/admin/widgets/projections/widgets/parked/\(event)").status == .notFound)
            #expect((try await widgetsProjection()["parked"] as? [Any])?.isEmpty == true)
            try await replayed()
            let back = try await call(.get, "/v1/widgets/\(widget)")
            #expect(back.status == .ok)
            #expect(back.json["name"] as? String == "gear")
            let caughtUp = try await widgetsProjection()
            #expect(caughtUp["caughtUp"] as? Bool == true)
            #expect(caughtUp["lagEvents"] as? Int == 0)
        }
    }

    @Test("parking an account's deletion, a revoked session or a role change is refused with 409 saying why, and nothing is parked")
    func unparkable() async throws {
        let kit = try await KitHarness()
        let admin = try await kit.token(role: .admin)
        try await kit.test { client, runtime, _ in
            let (account, session) = (UUID(), UUID())
            let events: [(stream: String, event: any EventContract)] = [
                ("account-\(account.lowercasedText)", AccountDeleted(accountId: account, deletedAt: Date())),
                ("session-\(session.lowercasedText)", SessionRevoked(sessionId: session, accountId: account, reason: "signed out", at: Date())),
                ("account-\(account.lowercasedText)", RoleChanged(accountId: account, role: "member")),
            ]
            for (stream, event) in events {
                let appended = try await runtime.store.append(
                    to: stream, expected: .any, events: [try EventCatalog.encode(event, metadata: EventMetadata())])
                let id = try #require(try await runtime.store.read(stream: stream).last?.id).lowercasedText
                let refused = try await client.execute(
                    uri: "/v1/admin/widgets/projections/revocations/parked", method: .post,
                    headers: .json(token: admin, [.commonsMinPosition: appended.checkpoint.description]),
                    body: ByteBuffer(string: #"{"eventId":"\#(id)","reason":"cannot apply"}"#))
                let type = Swift.type(of: event).eventType
                #expect(refused.status == .conflict, "\(type): \(refused.json)")
                #expect((refused.json["detail"] as? String)?.hasPrefix("\(type) events cannot be parked: ") == true, "\(refused.json)")
                #expect((refused.json["extensions"] as? [String: String])?["eventType"] == type)
            }
            #expect(try await ProjectionParking.parked(for: "revocations", in: runtime.store).isEmpty)
        }
    }

    @Test("a graceful shutdown cancels a replay under way and leaves no file of it behind; the live read model stays")
    func shutdownCancelsReplay() async throws {
        let kit = try await KitHarness()
        // Enough events that the replay is still running when the test stops the service.
        var position = try await kit.log.store.head().position
        for _ in 0..<5 {
            var batch: [RecordedEvent] = []
            for _ in 0..<10_000 {
                position += 1
                let event = NewEvent(type: "WidgetCreated", data: Data(#"{"name":"gear","count":1}"#.utf8))
                batch.append(
                    RecordedEvent(
                        checkpoint: Checkpoint(transaction: UInt64(position), position: position), stream: "widget-\(UUID().uuidString.lowercased())",
                        version: 1, id: event.id, type: event.type, schemaVersion: 1, data: event.data, metadata: event.metadata, recordedAt: Date()))
            }
            _ = try await kit.log.store.importEvents(batch)
        }
        let directory = URL(fileURLWithPath: kit.configuration.dataDirectory)
        let admin = try await kit.token(role: .admin)
        try await kit.test { client, _, _ in
            let started = try await client.execute(uri: "/v1/admin/widgets/replay", method: .post, headers: .json(token: admin))
            #expect(started.status == .accepted)
            let status = try await client.execute(uri: "/v1/admin/widgets/projections", method: .get, headers: .json(token: admin))
            #expect((status.json["replay"] as? [String: Any])?["state"] as? String == "running")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("widgets.") }.sorted()
        let liveFile = try String(contentsOf: directory.appendingPathComponent("widgets.current"), encoding: .utf8)
        #expect(liveFile == "widgets.sqlite", "the replay was not swapped in")
        #expect(files.allSatisfy { $0 == "widgets.current" || $0.hasPrefix(liveFile) }, "only the live file and its pointer: \(files)")
    }
}
