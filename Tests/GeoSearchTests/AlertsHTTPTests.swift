import AsyncHTTPClient
import Contracts
import EventLog
import EventLogTestSupport
import Foundation
import GRDB
import Geo
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServiceKit
import ServiceTestSupport
import Testing

@Suite("saved searches: alerts, matches and the live stream")
struct AlertsHTTPTests {
    /// A point 1.1 km north of San Francisco's centre: inside a 2 km alert there.
    static let nearby = Coordinate(lat: 37.7849, lon: -122.4194)

    static func sanFranciscoAlert(_ extra: [String: Any] = [:]) -> [String: Any] {
        ["lat": City.sanFrancisco.lat, "lon": City.sanFrancisco.lon, "radius": 2, "unit": "km"].merging(extra) { $1 }
    }

    @Test("an alert is its owner's alone: 201 with Location, listed, 404 to others, 401 anonymous", arguments: Backend.allCases)
    func ownership(backend: Backend) async throws {
        try await GeoSearchHarness(backend: backend).test { client in
            let owner = UUID()
            let created = try await client.send(.post, "/v1/alerts", as: owner, json: Self.sanFranciscoAlert(["name": "Home", "q": "sofa"]))
            #expect(created.status == .created, "\(created.text)")
            let id = try #require(created.json["id"] as? String).lowercased()
            #expect(created.headers[.location] == "/v1/alerts/\(id)")
            #expect(created.json["radius"] as? Double == 2)
            #expect(created.json["q"] as? String == "sofa")

            // Read after the write: on PostgreSQL another test's open transaction can hold the projection back.
            let position = created.headers[.commonsPosition]
            let mine = try await client.send(.get, "/v1/alerts", as: owner, after: position)
            #expect((mine.json["items"] as? [[String: Any]])?.ids == [id])
            #expect(try await client.send(.get, "/v1/alerts/\(id)", as: owner, after: position).status == .ok)

            let stranger = UUID()
            #expect(try await client.send(.get, "/v1/alerts/\(id)", as: stranger).status == .notFound)
            #expect(try await client.send(.delete, "/v1/alerts/\(id)", as: stranger).status == .notFound)
            #expect((try await client.send(.get, "/v1/alerts", as: stranger).json["items"] as? [Any])?.isEmpty == true)
            #expect(try await client.send(.get, "/v1/alerts", as: nil).status == .unauthorized)
            #expect(try await client.send(.post, "/v1/alerts", as: nil, json: Self.sanFranciscoAlert()).status == .unauthorized)
        }
    }

    @Test("bad alerts get a 422 naming every field; the 21st alert gets a 409")
    func validation() async throws {
        try await GeoSearchHarness().test { client in
            let owner = UUID()
            let bad = try await client.send(.post, "/v1/alerts", as: owner, json: ["lat": 95, "radius": 150, "q": "!!"])
            #expect(bad.status == .unprocessableContent)
            let errors = try #require(bad.json["errors"] as? [String: [String]])
            #expect(Set(errors.keys) == ["lat", "lon", "q"])
            let tooFar = try await client.send(.post, "/v1/alerts", as: owner, json: Self.sanFranciscoAlert(["radius": 101]))
            #expect((tooFar.json["errors"] as? [String: [String]])?["radius"] == ["must be at most 100 km (62.137 mi) for an alert"])
            let unit = try await client.send(.post, "/v1/alerts", as: owner, json: Self.sanFranciscoAlert(["unit": "furlong"]))
            #expect((unit.json["errors"] as? [String: [String]])?.keys.sorted() == ["unit"])
            let notJSON = try await client.send(.post, "/v1/alerts", as: owner, json: ["lat": "north"])
            #expect(notJSON.status.code / 100 == 4)

            var position: String?
            for _ in 0..<20 {
                let created = try await client.send(.post, "/v1/alerts", as: owner, json: Self.sanFranciscoAlert())
                #expect(created.status == .created)
                position = created.headers[.commonsPosition]
            }
            // Counted in the read model: once it holds the twentieth.
            let more = try await client.send(.post, "/v1/alerts", as: owner, json: Self.sanFranciscoAlert(), after: position)
            #expect(more.status == .conflict)

            // Query fields that are not what they say are a 400, and an id that cannot exist a 404
            // (as everywhere in the kit): problem documents, never a 500.
            for (path, status) in [
                ("/v1/alerts/matches?limit=0", HTTPResponse.Status.badRequest), ("/v1/alerts/matches?limit=many", .badRequest),
                ("/v1/alerts/not-an-id", .notFound),
            ] {
                let reply = try await client.send(.get, path, as: owner)
                #expect(reply.status == status, "\(path): \(reply.status) \(reply.text)")
                #expect(reply.headers[.contentType]?.hasPrefix("application/problem+json") == true, "\(path)")
            }
            #expect(try await client.send(.delete, "/v1/alerts/not-an-id", as: owner).status == .notFound)
        }
    }

    @Test("matches: only new listings the alert covers, oldest first, each read once", arguments: Backend.allCases)
    func matches(backend: Backend) async throws {
        try await GeoSearchHarness(backend: backend).test { client in
            let owner = UUID()
            try await client.post(title: "Old sofa", category: "Furniture", at: Self.nearby) // before the alert
            let alert = try await client.send(.post, "/v1/alerts", as: owner, json: Self.sanFranciscoAlert(["category": "furniture", "q": "sofa"]))
            let alertId = try #require(alert.json["id"] as? String).lowercased()

            let first = UUID(), second = UUID(), withdrawn = UUID()
            try await client.post(first, title: "Green sofa bed", category: "Furniture", at: Self.nearby)
            try await client.post(title: "Sofa far away", category: "Furniture", at: City.oakland) // 14 km away
            try await client.post(title: "Sofa cushions", category: "Household", at: Self.nearby) // another category
            try await client.post(title: "Wooden chair", category: "Furniture", at: Self.nearby) // no keyword
            try await client.post(withdrawn, title: "Sofa, gone again", category: "Furniture", at: Self.nearby)
            try await client.append(
                ListingStatusChanged(listingId: withdrawn, status: .withdrawn),
                to: "listing-\(withdrawn.key)")
            let last = try await client.post(second, title: "Small sofa", category: "Furniture", at: Self.nearby)

            let page = try await client.send(.get, "/v1/alerts/matches", as: owner, after: last)
            #expect(page.status == .ok, "\(page.text)")
            let items = try #require(page.json["items"] as? [[String: Any]])
            #expect(items.compactMap { ($0["listing"] as? [String: Any])?["id"] as? String }.map { $0.lowercased() } == [first.key, second.key])
            #expect(items.allSatisfy { ($0["alertIds"] as? [String])?.map { $0.lowercased() } == [alertId] })
            let distance = try #require((items.first?["listing"] as? [String: Any])?["distanceMeters"] as? Double)
            #expect(distance > 0 && distance <= 2_000)
            #expect(page.json["readUpTo"] as? String == items.last?["id"] as? String)

            let again = try await client.send(.get, "/v1/alerts/matches", as: owner, after: page.headers[.commonsPosition])
            #expect((again.json["items"] as? [Any])?.isEmpty == true)
            let newer = UUID()
            let position = try await client.post(newer, title: "Sofa", category: "Furniture", at: Self.nearby)
            let next = try await client.send(.get, "/v1/alerts/matches", as: owner, after: position)
            #expect(
                (next.json["items"] as? [[String: Any]])?.compactMap { ($0["listing"] as? [String: Any])?["id"] as? String }
                    .map { $0.lowercased() } == [newer.key])

            // Someone else's alerts see none of this; a deleted alert matches nothing more.
            #expect((try await client.send(.get, "/v1/alerts/matches", as: UUID()).json["items"] as? [Any])?.isEmpty == true)
            #expect(try await client.send(.delete, "/v1/alerts/\(alertId)", as: owner, after: alert.headers[.commonsPosition]).status == .noContent)
            #expect(try await client.send(.delete, "/v1/alerts/\(alertId)", as: owner).status == .notFound)
            let after = try await client.post(title: "Sofa", category: "Furniture", at: Self.nearby)
            #expect((try await client.send(.get, "/v1/alerts/matches", as: owner, after: after).json["items"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("a deleted account's alerts are gone, and its search centre was never in the log in clear", arguments: Backend.allCases)
    func accountDeletion(backend: Backend) async throws {
        try await GeoSearchHarness(backend: backend).test { client in
            let owner = UUID()
            let centre: [String: Any] = ["lat": 52.370216, "lon": 4.895168, "radius": 3]
            #expect(try await client.send(.post, "/v1/alerts", as: owner, json: centre).status == .created)
            let deleted = try await client.append(AccountDeleted(accountId: owner, deletedAt: Date()), to: "account-\(owner.key)")
            // The owner's tokens stop working with the deletion, so the read model is asked directly.
            let applied = await client.runtime.waitUntilApplied(try #require(Checkpoint(deleted)), timeout: .seconds(30))
            #expect(applied)
            let left = try await client.runtime.readModel.pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM geo_alerts") }
            #expect(left == 0)
            let events = try await client.store.readAll(after: .start, limit: 100, filter: EventFilter(categories: ["alert"])).events
            #expect(events.count == 1)
            for event in events { #expect(!String(decoding: event.data, as: UTF8.self).contains("52.37")) }
        }
    }

    // The limit catches a stream that never ends, nothing slower: in a full parallel run on two
    // cores each request here can take seconds, and the test took up to a minute.
    @Test("the stream delivers matches live and resumes after Last-Event-ID", .timeLimit(.minutes(3)), arguments: Backend.allCases)
    func stream(backend: Backend) async throws {
        try await GeoSearchHarness(backend: backend).test(.live) { client in
            let owner = UUID()
            let port = try #require(client.client.port)
            #expect(try await client.send(.post, "/v1/alerts", as: owner, json: Self.sanFranciscoAlert()).status == .created)
            let token = try await client.token(for: owner)

            let first = UUID()
            try await client.post(first, title: "Lamp", at: Self.nearby)
            let opened = try await EventStreamReader.open(port: port, path: "/v1/alerts/stream", token: token)
            let delivered = try await opened.next(events: 1)
            #expect(delivered.map(\.name) == ["match"])
            #expect(delivered.first?.data.lowercased().contains(first.key) == true)
            let second = UUID()
            try await client.post(second, title: "Desk", at: Self.nearby) // while connected: live
            let live = try await opened.next(events: 1)
            #expect(live.first?.data.lowercased().contains(second.key) == true)
            try await opened.close()

            let third = UUID()
            try await client.post(third, title: "Shelf", at: Self.nearby)
            let resumed = try await EventStreamReader.open(port: port, path: "/v1/alerts/stream", token: token, lastEventID: live.first?.id)
            let after = try await resumed.next(events: 1)
            #expect(after.first?.data.lowercased().contains(third.key) == true)
            try await resumed.close()

            let bad = try await EventStreamReader.status(port: port, path: "/v1/alerts/stream", token: token, lastEventID: "not-an-id")
            #expect(bad == 400)
        }
    }

    @Test(
        "a client that drops its stream's connection frees its place at once: more streams than an account may hold, opened and dropped one after another, all open",
        .timeLimit(.minutes(3)))
    func droppedStreamsFreeTheirPlaces() async throws {
        try await GeoSearchHarness(backend: .sqlite).test(.live) { client in
            let owner = UUID()
            let port = try #require(client.client.port)
            #expect(try await client.send(.post, "/v1/alerts", as: owner, json: Self.sanFranciscoAlert()).status == .created)
            let token = try await client.token(for: owner)
            for _ in 0...client.runtime.streams.perAccount {
                // Opening fails the test on any answer but 200: a dropped stream still counted would make it 429.
                let opened = try await EventStreamReader.open(port: port, path: "/v1/alerts/stream", token: token)
                #expect(client.runtime.streams.count(of: owner) == 1)
                try await opened.close()
                // Not by a failed keep-alive write, which would come only 30 s on.
                let deadline = ContinuousClock.now + .seconds(10)
                while client.runtime.streams.count(of: owner) > 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
                #expect(client.runtime.streams.count(of: owner) == 0)
            }
        }
    }
}
