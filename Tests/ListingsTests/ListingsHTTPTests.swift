import Contracts
import EventLog
import EventLogTestSupport
import Foundation
import ListingsService
import ServiceKit
import Testing

@Suite("listings over HTTP")
struct ListingsHTTPTests {
    @Test("posting, the public view and the owner's view", arguments: Backend.allCases)
    func postAndRead(backend: Backend) async throws {
        try await ListingsHarness(backend: backend).test { client in
            let (owner, stranger) = (try await client.person(), try await client.person())
            let (id, position, created) = try await client.post(["price": ["amountMinor": 2_500, "currency": "EUR"]], as: owner)
            #expect(created.headers[.location] == "/v1/listings/\(id)")
            #expect(created.etag == "\"4\"")
            #expect(created.json["pickupLocation"] != nil)

            let anonymous = try await client.get("/v1/listings/\(id)", after: position)
            #expect(anonymous.status == .ok)
            #expect(anonymous.json["title"] as? String == "Oak dining chair")
            #expect(anonymous.json["status"] as? String == "available")
            #expect((anonymous.json["price"] as? [String: Any])?["amountMinor"] as? Int == 2_500)
            #expect(anonymous.json["pickupLocation"] == nil && anonymous.json["streetAddress"] == nil && anonymous.json["directionsURL"] == nil)
            let approximate = try #require(anonymous.json["approximateLocation"] as? [String: Double])
            #expect(approximate["lat"] != ListingsFixtures.exactLat && approximate["lon"] != ListingsFixtures.exactLon)
            #expect(abs(approximate["lat"]! - ListingsFixtures.exactLat) < 0.01)
            #expect((try await client.get("/v1/listings/\(id)", as: stranger, after: nil)).json["streetAddress"] == nil)

            let mine = try await client.get("/v1/listings/\(id)", as: owner, after: nil)
            #expect(mine.json["streetAddress"] as? String == ListingsFixtures.address)
            #expect((mine.json["pickupLocation"] as? [String: Double])?["lat"] == ListingsFixtures.exactLat)
            #expect(mine.json["directionsURL"] as? String == "https://maps.apple.com/?daddr=52.374519,4.883917")
            // The post's answer is built from what the request decided, not read back: it must be the owner's view.
            #expect(String(decoding: created.body, as: UTF8.self) == String(decoding: mine.body, as: UTF8.self))
            #expect((try await client.get("/v1/listings/\(UUID())", after: nil)).status == .notFound)
            #expect((try await client.get("/v1/listings/not-an-id", after: nil)).status == .notFound)
        }
    }

    @Test("bad input lists every bad field; missing auth is 401; malformed JSON is 400")
    func badInput() async throws {
        try await ListingsHarness().test { client in
            let owner = try await client.person()
            let reply = try await client.call(
                .post, "/v1/listings", as: owner,
                json: [
                    "title": "", "description": String(repeating: "x", count: 5_001), "category": "Cars", "condition": "mint",
                    "price": ["amountMinor": 0, "currency": "eur"], "pickupLocation": ["lat": 95.0, "lon": 200.0],
                    "imageIds": [UUID().uuidString],
                ])
            #expect(reply.status == .unprocessableContent)
            #expect(reply.headers[.contentType] == "application/problem+json")
            #expect(
                Set(reply.errors.keys) == [
                    "title", "description", "category", "condition", "price.amountMinor", "price.currency",
                    "pickupLocation.lat", "pickupLocation.lon", "imageIds[0]",
                ])
            let missing = try await client.call(.post, "/v1/listings", as: owner, json: [:])
            #expect(Set(missing.errors.keys) == ["title", "category", "condition", "pickupLocation"])
            #expect((try await client.call(.post, "/v1/listings", json: ListingsFixtures.listing)).status == .unauthorized)
            let malformed = try await client.call(
                .post, "/v1/listings", as: owner, bytes: Array("{\"title\": ".utf8),
                headers: [.contentType: "application/json"])
            #expect(malformed.status == .badRequest)
            let wrongType = try await client.call(.post, "/v1/listings", as: owner, json: ["title": 5])
            #expect(wrongType.status == .badRequest)
            // A NUL in any text is refused before anything is written: SQLite's read models would cut the text there.
            let nul = try await client.call(
                .post, "/v1/listings", as: owner,
                json: ListingsFixtures.listing.merging(["description": "Sturdy\u{0} and more"]) { $1 })
            #expect(nul.status == .unprocessableContent)
            #expect(nul.errors.keys.contains("body"))
            #expect(try await settledEvents(of: client.runtime.store).allSatisfy { !$0.stream.hasPrefix("listing-") })
        }
    }

    @Test("one person's requests for a listing sent at once: one is taken, the others are 409 already-requested", arguments: Backend.allCases)
    func concurrentRequestsOfOnePerson(backend: Backend) async throws {
        try await ListingsHarness(backend: backend).test { client in
            let (owner, asker) = (try await client.person(), try await client.person())
            let (id, _, _) = try await client.post(as: owner)
            let codes = try await withThrowingTaskGroup(of: Int.self) { group in
                for n in 0..<4 {
                    group.addTask {
                        try await client.call(.post, "/v1/listings/\(id)/requests", as: asker, json: ["message": "Mine? \(n)"]).status.code
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(codes.sorted() == [201, 409, 409, 409])
            let requests = try await client.runtime.store.read(stream: "listingrequests-\(id)")
            #expect(requests.count == 1)
        }
    }

    @Test("editing needs the owner and a fresh If-Match; a moved pickup point moves the public one", arguments: Backend.allCases)
    func editing(backend: Backend) async throws {
        try await ListingsHarness(backend: backend).test { client in
            let (owner, stranger) = (try await client.person(), try await client.person())
            let (id, _, created) = try await client.post(as: owner)
            let etag = try #require(created.etag)
            let path = "/v1/listings/\(id)"
            #expect((try await client.call(.patch, path, as: owner, json: ["title": "Chair"])).status == .preconditionRequired)
            #expect((try await client.call(.patch, path, as: stranger, json: ["title": "Mine now"], headers: [.ifMatch: etag])).status == .forbidden)
            let invalid = try await client.call(.patch, path, as: owner, json: ["title": "", "category": "Boats"], headers: [.ifMatch: etag])
            #expect(invalid.status == .unprocessableContent)
            #expect(Set(invalid.errors.keys) == ["title", "category"])
            let badImage = try await client.call(
                .patch, path, as: owner, json: ["title": "", "imageIds": [UUID().uuidString]], headers: [.ifMatch: etag])
            #expect(badImage.status == .unprocessableContent)
            #expect(Set(badImage.errors.keys) == ["title", "imageIds[0]"]) // every bad field, not just the first found

            let edited = try await client.call(
                .patch, path, as: owner,
                json: [
                    "title": "Walnut chair", "price": ["amountMinor": 1_000, "currency": "EUR"], "pickupLocation": ["lat": 52.3600, "lon": 4.8852],
                ], headers: [.ifMatch: etag])
            #expect(edited.status == .ok)
            #expect(edited.json["title"] as? String == "Walnut chair")
            #expect(edited.json["streetAddress"] as? String == ListingsFixtures.address)
            #expect(edited.etag != etag)
            let approximate = try #require(edited.json["approximateLocation"] as? [String: Double])
            #expect(abs(approximate["lat"]! - 52.3600) < 0.01)
            #expect(
                (try await client.call(.patch, path, as: owner, json: ["title": "Stale"], headers: [.ifMatch: etag])).status == .preconditionFailed)
            let freeAgain = try await client.call(.patch, path, as: owner, json: ["price": NSNull()], headers: [.ifMatch: edited.etag!])
            #expect(freeAgain.json["free"] as? Bool == true)
        }
    }

    @Test("requests, promise and hand-over; the exact place is revealed to the promised requester only", arguments: Backend.allCases)
    func promiseFlow(backend: Backend) async throws {
        try await ListingsHarness(backend: backend).test { client in
            let (owner, asker, other) = (try await client.person(), try await client.person(), try await client.person())
            let (id, _, _) = try await client.post(as: owner)
            let path = "/v1/listings/\(id)"
            #expect((try await client.call(.post, "\(path)/requests", as: owner, json: ["message": "mine"])).status == .conflict)
            #expect((try await client.call(.post, "\(path)/requests", as: asker, json: ["message": " "])).status == .unprocessableContent)
            let request = try await client.call(.post, "\(path)/requests", as: asker, json: ["message": "I'd love it for my flat"])
            #expect(request.status == .created)
            let requestId = try #require(request.json["id"] as? String)
            let second = try await client.call(.post, "\(path)/requests", as: other, json: ["message": "Me too"])
            // One request per person: asking again is refused, and the owner's list does not grow.
            let askedAgain = try await client.call(.post, "\(path)/requests", as: asker, json: ["message": "Please, really"])
            #expect(askedAgain.status == .conflict)
            #expect(askedAgain.text.contains("already-requested"))

            #expect((try await client.get("\(path)/requests", as: asker, after: nil)).status == .forbidden)
            let listed = try await client.items("\(path)/requests", as: owner, after: second.position)
            #expect(listed.count == 2)
            #expect(listed.first?["message"] as? String == "I'd love it for my flat")
            // A page at a time, oldest first.
            let first = try await client.get("\(path)/requests?limit=1", as: owner, after: nil)
            #expect((first.json["items"] as? [[String: Any]])?.first?["message"] as? String == "I'd love it for my flat")
            let cursor = try #require(first.json["nextCursor"] as? String)
            let rest = try await client.get("\(path)/requests?limit=1&cursor=\(cursor)", as: owner, after: nil)
            #expect((rest.json["items"] as? [[String: Any]])?.map { $0["message"] as? String } == ["Me too"])
            #expect(rest.json["nextCursor"] == nil)
            #expect((try await client.get("\(path)/requests?limit=101", as: owner, after: nil)).status == .badRequest)

            #expect((try await client.call(.post, "\(path)/promise", as: other, json: ["requestId": requestId])).status == .forbidden)
            #expect(
                (try await client.call(.post, "\(path)/promise", as: owner, json: ["requestId": UUID().uuidString])).status == .unprocessableContent)
            let promised = try await client.call(.post, "\(path)/promise", as: owner, json: ["requestId": requestId])
            #expect(promised.status == .ok)
            #expect(promised.json["status"] as? String == "promised")
            #expect((promised.json["promisedTo"] as? String)?.lowercased() == asker.id.uuidString.lowercased())

            let asAsker = try await client.get(path, as: asker, after: nil)
            #expect(asAsker.json["streetAddress"] as? String == ListingsFixtures.address)
            #expect((asAsker.json["pickupLocation"] as? [String: Double])?["lon"] == ListingsFixtures.exactLon)
            #expect(asAsker.json["promisedTo"] == nil)
            #expect((try await client.get(path, as: other, after: nil)).json["streetAddress"] == nil)

            let again = try await client.call(.post, "\(path)/promise", as: owner, json: ["requestId": requestId])
            #expect(again.status == .conflict)
            #expect((again.json["extensions"] as? [String: String])?["status"] == "promised")
            let sold = try await client.call(.post, "\(path)/status", as: owner, json: ["status": "sold"])
            #expect(sold.status == .conflict) // a free item is given, not sold
            let given = try await client.call(.post, "\(path)/status", as: owner, json: ["status": "given"])
            #expect(given.json["status"] as? String == "given")
            #expect((try await client.get(path, as: asker, after: nil)).json["streetAddress"] == nil)
            let withdraw = try await client.call(.delete, path, as: owner)
            #expect(withdraw.status == .conflict)
            #expect((withdraw.json["extensions"] as? [String: String])?["status"] == "given")
        }
    }

    @Test("withdrawing; taking a promise back; the owner's history")
    func withdrawAndHistory() async throws {
        try await ListingsHarness().test { client in
            let (owner, asker) = (try await client.person(), try await client.person())
            let (id, _, _) = try await client.post(as: owner)
            let path = "/v1/listings/\(id)"
            let request = try await client.call(.post, "\(path)/requests", as: asker, json: ["message": "Please"])
            try await client.call(.post, "\(path)/promise", as: owner, json: ["requestId": request.json["id"] as? String ?? ""])
            let released = try await client.call(.post, "\(path)/status", as: owner, json: ["status": "available"])
            #expect(released.json["status"] as? String == "available")
            #expect((try await client.get(path, as: asker, after: nil)).json["streetAddress"] == nil)
            #expect((try await client.call(.post, "\(path)/status", as: owner, json: ["status": "lost"])).status == .unprocessableContent)
            #expect((try await client.call(.delete, path, as: asker)).status == .forbidden)
            let withdrawn = try await client.call(.delete, path, as: owner)
            #expect(withdrawn.json["status"] as? String == "withdrawn")
            #expect((try await client.call(.delete, path, as: owner)).status == .conflict)
            let edit = try await client.call(.patch, path, as: owner, json: ["title": "Back again"], headers: [.ifMatch: withdrawn.etag!])
            #expect(edit.status == .conflict)
            #expect((edit.json["type"] as? String)?.hasSuffix("not-editable") == true, "\(edit.text)")
            #expect((edit.json["extensions"] as? [String: String])?["status"] == "withdrawn", "\(edit.text)")

            #expect((try await client.get("\(path)/history", as: asker, after: nil)).status == .forbidden)
            let history = try await client.items("\(path)/history", as: owner, after: nil)
            #expect(
                history.compactMap { $0["type"] as? String } == [
                    "ListingPosted", "ListingDetailsSet", "ListingPickupPlaceSet", "ListingExpirySet", "ListingPromised", "ListingStatusChanged",
                    "ListingStatusChanged", "ListingStatusChanged",
                ])
            #expect(history.compactMap { $0["status"] as? String } == ["promised", "available", "withdrawn"])
            #expect(history.allSatisfy { $0["actorId"] as? String == owner.id.uuidString.lowercased() })
        }
    }

    @Test("a listing expires unless renewed; the sweep writes the expiry down; renewals are spaced", arguments: Backend.allCases)
    func expiry(backend: Backend) async throws {
        try await ListingsHarness(backend: backend).test { client in
            let owner = try await client.person()
            let (id, position, _) = try await client.post(as: owner)
            let path = "/v1/listings/\(id)"
            #expect(try await client.items("/v1/listings", after: position).ids == [id])
            client.clock.advance(by: 31 * 86_400)
            #expect((try await client.get(path, after: nil)).json["status"] as? String == "expired")
            #expect(try await client.items("/v1/listings", after: nil).isEmpty)
            #expect(try await client.items("/v1/listings?status=expired", after: nil).ids == [id])
            #expect((try await client.call(.post, "\(path)/requests", as: try await client.person(), json: ["message": "hi"])).status == .conflict)

            let swept = try await ListingsService.sweepExpiries(runtime: client.runtime, environment: client.environment, clock: client.clock.clock)
            #expect(swept == 1)
            let events = try await client.runtime.store.read(stream: "listing-\(id)")
            #expect(events.last?.type == "ListingStatusChanged")

            let renewed = try await client.call(.post, "\(path)/renew", as: owner)
            #expect(renewed.status == .ok)
            #expect(renewed.json["status"] as? String == "available")
            #expect(try await client.items("/v1/listings", after: renewed.position).ids == [id])
            let tooSoon = try await client.call(.post, "\(path)/renew", as: owner)
            #expect(tooSoon.status == .tooManyRequests)
            #expect(tooSoon.headers[.retryAfter] != nil)
            client.clock.advance(by: 86_400)
            #expect((try await client.call(.post, "\(path)/renew", as: owner)).status == .ok)
        }
    }
}
