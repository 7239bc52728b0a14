import AsyncHTTPClient
import CommonsClient
import EventLogTestSupport
import Foundation
import NIOCore
import NIOHTTP1
import PhotoCodec
import StackKit
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Seeding the demo city renders and uploads its pictures, work enough for a core for
/// half a minute: stacks that seed take turns, so that the suites running beside them on
/// CI's two cores keep to their deadlines.
actor SeededStacks {
    static let shared = SeededStacks()
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` when no other seeding stack runs.
    static func oneAtATime(_ body: () async throws -> Void) async throws {
        await shared.enter()
        do { try await body() } catch { await shared.leave(); throw error }
        await shared.leave()
    }

    private func enter() async {
        if !busy { busy = true; return }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func leave() {
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }
}

/// `commons up` and `commons seed`, run as processes: the real services behind the real gateway.
@Suite("commons up and commons seed")
struct UpTests {
    @Test("up serves accounts through the gateway, restarts it after a crash and stops on SIGTERM", arguments: Backend.allCases)
    func serves(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let stack = try UpProcess.start(seed: false, log: log)
        try await stack.run { stack in
            let first = try #require(stack.childPids().first)
            #expect(processStatus(first)?.parent == stack.pid, "accounts runs as a child of commons up")
            #expect(processStatus(first)?.name == "accounts")
            #expect(stack.output.contains("event log \(log.eventStoreValue)"), "COMMONS_EVENT_STORE passes through: \(stack.output)")
            // Printed once commons up has seen every service ready, which may be just after the gateway said so.
            #expect(
                try await stack.waitForOutput { $0.contains("ready in") && $0.contains(try! Regex(" gateway +\\Q\(stack.gateway)\\E")) },
                "\(stack.output)")

            // Register, then read the account back with the token, all through the gateway.
            let email = "up-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            let registered = try await http(
                .POST, stack.gateway + "/v1/accounts",
                json: ["email": email, "password": "a-long-enough-secret", "displayName": "Up Test"],
                headers: ["X-Request-Id": "up-test-1"])
            #expect(registered.status == 201, "\(registered)")
            #expect(registered.headers["X-Request-Id"].first == "up-test-1", "the gateway keeps X-Request-Id")
            let token = try #require(registered.json()["accessToken"] as? String)
            let position = registered.headers["Commons-Position"].first ?? "0"
            // 503 means "not caught up yet" (on PostgreSQL another test's open transaction can
            // hold delivery back): a client retries after Retry-After, and so does this test.
            var me = try await http(.GET, stack.gateway + "/v1/me", headers: ["Authorization": "Bearer \(token)", "Commons-Min-Position": position])
            for _ in 0..<15 where me.status == 503 {
                try await Task.sleep(for: .seconds(1))
                me = try await http(.GET, stack.gateway + "/v1/me", headers: ["Authorization": "Bearer \(token)", "Commons-Min-Position": position])
            }
            #expect(me.status == 200, "\(me)")
            #expect(try me.json()["email"] as? String == email)

            // A path no service serves: the gateway's own 404 problem.
            let unknown = try await http(.GET, stack.gateway + "/v1/nothing-here")
            #expect(unknown.status == 404)
            #expect(unknown.headers["Content-Type"].first == "application/problem+json")
            #expect(try unknown.json()["status"] as? Int == 404)

            // The API's documentation: the merged document, as committed for nginx, and the page.
            let document = try await http(.GET, stack.gateway + "/openapi.json")
            #expect(document.status == 200 && document.headers["Content-Type"].first == "application/json")
            #expect(document.body == (try Data(contentsOf: repositoryRoot.appendingPathComponent("deploy/docs/openapi.json"))))
            let paths = try #require(try document.json()["paths"] as? [String: Any])
            #expect(paths["/v1/nearby/listings"] != nil && paths["/v1/accounts"] != nil && paths["/health/ready"] == nil)
            // /docs redirects to /docs/ (the client follows it), where the page's links are relative to.
            let bare = try await http(.GET, stack.gateway + "/docs")
            #expect(bare.status == 200 && String(decoding: bare.body, as: UTF8.self).contains("<script src=\"docs.js\""))
            let page = try await http(.GET, stack.gateway + "/docs/")
            #expect(page.status == 200 && page.headers["Content-Type"].first == "text/html; charset=utf-8")
            #expect(String(decoding: page.body, as: UTF8.self).contains("<script src=\"docs.js\""))
            let script = try await http(.GET, stack.gateway + "/docs/docs.js")
            #expect(script.status == 200 && script.headers["Content-Type"].first == "text/javascript; charset=utf-8")
            #expect(try await http(.GET, stack.gateway + "/docs/nothing.js").status == 404)
            #expect(try await http(.POST, stack.gateway + "/openapi.json").status == 405)

            // A service of the table that is not built yet: a 502 problem.
            if !FileManager.default.fileExists(atPath: commonsExecutable.deletingLastPathComponent().appendingPathComponent("listings").path) {
                let missing = try await http(.GET, stack.gateway + "/v1/listings")
                #expect(missing.status == 502)
                #expect(missing.headers["Content-Type"].first == "application/problem+json")
            }

            // A crash: the child is started again and serves the same account.
            kill(first, SIGKILL)
            #expect(try await stack.waitForOutput { _ in stack.childPids().count == 2 }, "\(stack.output)")
            #expect(stack.output.contains("accounts was killed by SIGKILL; restarting in 0.5 s"), "\(stack.output)")
            try await stack.waitUntilReady()
            let again = try await http(.GET, stack.gateway + "/v1/me", headers: ["Authorization": "Bearer \(token)"])
            #expect(again.status == 200, "\(again)")

            #expect(!stack.output.contains("demo accounts"), "--no-seed seeds nothing")
            #expect(!FileManager.default.fileExists(atPath: stack.dataDirectory.appendingPathComponent("seeded").path))
        }
        await log.close()
    }

    @Test("up seeds demo accounts on first start, in the embedded log; seed again leaves them as they are")
    func seeds() async throws {
        try await SeededStacks.oneAtATime {
            let stack = try UpProcess.start(seed: true, log: nil)
            try await stack.run { stack in
                let marker = stack.dataDirectory.appendingPathComponent("seeded")
                #expect(try await stack.waitForOutput { _ in FileManager.default.fileExists(atPath: marker.path) }, "\(stack.output)")
                #expect(FileManager.default.fileExists(atPath: stack.dataDirectory.appendingPathComponent("events.sqlite").path))

                let password = try #require(stack.output.firstMatch(of: /password "([^"]+)"/)?.1)
                let emails = ["ada@commons.local", "grace@commons.local", "alan@commons.local"]
                // Once seeded, the last of commons up's own lines say where to go and how to stop.
                #expect(try await stack.waitForOutput { $0.contains("Ctrl-C stops everything") }, "\(stack.output)")
                let own = stack.output.split(separator: "\n").filter { $0.hasPrefix("commons ") }
                let welcome = own.suffix(4).joined(separator: "\n")
                #expect(welcome.contains("Commons is running: open \(stack.gateway)/"), "\(welcome)")
                #expect(emails.allSatisfy { welcome.contains($0) } && welcome.contains("password \"\(password)\""), "\(welcome)")
                for email in emails {
                    #expect(stack.output.contains(email), "\(stack.output)")
                    let session = try await http(.POST, stack.gateway + "/v1/sessions", json: ["email": email, "password": String(password)])
                    #expect(session.status == 201, "\(email): \(session)")
                }

                let refused = try await commons("seed", "--gateway", stack.gateway, log: nil)
                #expect(refused.status != 0 && refused.stderr.contains("pass --demo"), "without --demo it refuses: \(refused)")
                let again = try await commons("seed", "--demo", "--gateway", stack.gateway, log: nil)
                #expect(again.status == 0, "\(again)")
                #expect(again.lines.filter { $0.hasSuffix("exists already") }.count == emails.count, "\(again)")

                // With donations built: the organisations of Data/organizations.json, each once, estimates not repeated.
                let organizations = try await http(.GET, stack.gateway + "/v1/organizations?limit=100")
                if organizations.status == 200 {
                    let inFile = (try DemoData.json("organizations.json")["organizations"] as? [Any])?.count
                    #expect((try organizations.json()["items"] as? [Any])?.count == inFile, "\(organizations)")
                    let charity = try await http(.GET, stack.gateway + "/v1/organizations/against-malaria-foundation")
                    let estimates =
                        (try DemoData.json("organizations.json")["organizations"] as? [[String: Any]])?
                        .first { $0["slug"] as? String == "against-malaria-foundation" }?["impactEstimates"] as? [Any]
                    #expect((try charity.json()["impactEstimates"] as? [Any])?.count == estimates?.count, "\(charity)")
                    #expect(try charity.json()["verified"] as? Bool == true)
                }

                // Every other service's demo data, read through the gateway as an app would; the
                // read models may still be catching up with the seed, so each read is retried.
                let ada = try await http(.POST, stack.gateway + "/v1/sessions", json: ["email": "ada@commons.local", "password": String(password)])
                let token = try #require(try ada.json()["accessToken"] as? String)
                let reads: [(service: String, path: String, token: String?)] = [
                    ("listings", "/v1/listings?limit=50", nil),
                    ("geo-search", "/v1/nearby/listings?lat=52.3731&lon=4.8922&radius=20", nil),
                    // The demo donation centres are where the demo listings are.
                    ("geo-search", "/v1/nearby/organizations?lat=52.3731&lon=4.8922&radius=20&kind=centre", nil),
                    ("shopping-lists", "/v1/products?q=milk", nil),
                    ("shopping-lists", "/v1/lists", token),
                ]
                for read in reads {
                    guard
                        FileManager.default.fileExists(
                            atPath: commonsExecutable.deletingLastPathComponent().appendingPathComponent(read.service).path)
                    else { continue }
                    var count = 0
                    for _ in 0..<30 {
                        let answer = try await http(
                            .GET, stack.gateway + read.path, headers: read.token.map { ["Authorization": "Bearer \($0)"] } ?? [:])
                        count = (try? answer.json()["items"] as? [Any])??.count ?? 0
                        if answer.status == 200, count > 0 { break }
                        try await Task.sleep(for: .milliseconds(500))
                    }
                    #expect(count > 0, "\(read.service) \(read.path): no demo data")
                }
                try await expectDemoCity(gateway: stack.gateway, token: token)
            }
        }
    }

    /// The seeded city hangs together (issue 18): from the demo centre, the listings, centres
    /// and cheapest stores are all nearby, photos show drawings at phone size, and the demo
    /// accounts' donations and comments are there.
    private func expectDemoCity(gateway: String, token: String) async throws {
        let city = try DemoData.city()
        let here = "lat=\(city.centre.lat)&lon=\(city.centre.lon)"
        func items(_ service: String, _ path: String, token: String? = nil, atLeast: Int) async throws -> [[String: Any]] {
            guard FileManager.default.fileExists(atPath: commonsExecutable.deletingLastPathComponent().appendingPathComponent(service).path) else {
                return []
            }
            var found: [[String: Any]] = []
            for _ in 0..<40 {
                let answer = try await http(.GET, gateway + path, headers: token.map { ["Authorization": "Bearer \($0)"] } ?? [:])
                found = (try? answer.json()["items"] as? [[String: Any]]) ?? []
                if found.count >= atLeast { break }
                try await Task.sleep(for: .milliseconds(500))
            }
            #expect(found.count >= atLeast, "\(path): \(found.count) items")
            return found
        }
        let listings = try DemoData.listings()
        _ = try await items("geo-search", "/v1/nearby/listings?\(here)&radius=\(Int(city.radiusKm))&limit=100", atLeast: listings.count - 1)
        _ = try await items("geo-search", "/v1/nearby/organizations?\(here)&radius=\(Int(city.radiusKm))&kind=centre&limit=50", atLeast: 6)
        let mine = try await items(
            "listings", "/v1/listings?author=me&limit=50", token: token,
            atLeast: listings.filter { $0["owner"] as? String == "ada@commons.local" }.count)
        if let photo = mine.compactMap({ ($0["images"] as? [[String: Any]])?.first?["original"] as? String }).first {
            let picture = try await http(.GET, gateway + photo)
            #expect(picture.status == 200 && PhotoCleaner.format(of: [UInt8](picture.body)) == .jpeg, "\(photo) is a JPEG")
            let original = try? PhotoCleaner.clean([UInt8](picture.body)).sizes[.original]
            #expect(original?.width == 1200 && original?.height == 900, "a demo photo is a phone-sized picture, not a small square")
        }
        let products = try await items("shopping-lists", "/v1/products?q=milk&limit=5", atLeast: 1)
        if let product = products.first, let id = product["id"] as? String {
            #expect((product["image"] as? String)?.hasPrefix("/img/products/") == true, "\(product)")
            let detail = try await http(.GET, gateway + "/v1/products/\(id)?\(here)")
            let offers = (try detail.json()["offers"] as? [[String: Any]]) ?? []
            #expect(offers.contains { $0["cheapestNearby"] as? Bool == true }, "a store near the demo centre is the cheapest nearby: \(detail)")
            #expect(offers.allSatisfy { ($0["distanceMeters"] as? Double ?? .infinity) <= city.radiusKm * 1_000 }, "\(offers)")
        }
        _ = try await items("donations", "/v1/donations", token: token, atLeast: 2)
        _ = try await items("donations", "/v1/organizations/against-malaria-foundation/supporters", atLeast: 1)
        _ = try await items("donations", "/v1/donation-posts", atLeast: 2)
        _ = try await items("shopping-lists", "/v1/lists", token: token, atLeast: 2)
    }

    @Test("through the SDK alone, as an app: sign up, post with a photo, find it nearby, request it, donate, share a list and see a live edit")
    func appJourney() async throws {
        try await SeededStacks.oneAtATime {
            let stack = try UpProcess.start(seed: true, log: nil)
            try await stack.run { stack in
                let marker = stack.dataDirectory.appendingPathComponent("seeded")
                #expect(try await stack.waitForOutput { _ in FileManager.default.fileExists(atPath: marker.path) }, "\(stack.output)")
                let password = String(try #require(stack.output.firstMatch(of: /password "([^"]+)"/)?.1))
                // Two phones that pass positions on (a push, a shared link), so each reads the other's writes.
                let positions = PositionTracker()
                let gateway = try #require(URL(string: stack.gateway))
                let sam = CommonsClient(baseURL: gateway, positions: positions)
                let ada = CommonsClient(baseURL: gateway, positions: positions)
                _ = try await sam.accounts.register(email: "sam@example.com", password: "a long passphrase for sam", displayName: "Sam")
                let adaTokens = try await ada.accounts.signIn(email: "ada@commons.local", password: password)

                let jpeg = try #require(SamplePhoto.make(width: 800, height: 600, format: .jpeg, noise: 10))
                let photo = try await sam.listings.uploadImage(Data(jpeg), contentType: "image/jpeg")
                let place = Coordinate(lat: 52.3702, lon: 4.8952)
                let posted = try await sam.listings.post(
                    NewListing(
                        title: "Moving boxes", description: "Twenty sturdy boxes", category: "Furniture", condition: "good",
                        pickupTimes: PickupTimes(note: "Saturday morning"), pickupLocation: place, imageIds: [photo.id]))
                let nearby = try await ada.geo.nearbyListings(lat: place.lat, lon: place.lon, radius: 2)
                #expect(nearby.items.contains { $0.id == posted.id }, "Ada finds Sam's boxes nearby")
                let request = try await ada.listings.request(posted.id, message: "Could I have them on Saturday?")
                #expect(try await sam.listings.requests(posted.id).items.contains { $0.id == request.id })

                _ = try await ada.donations.topUp(amountMinor: 5_000, currency: "USD", cardNumber: "4242 4242 4242 4242")
                let made = try await ada.donations.donate(
                    NewDonation(organization: "against-malaria-foundation", amountMinor: 1_500, currency: "USD"))
                #expect(try await ada.donations.donations().items.map(\.id).contains(made.donation.id))

                let list = try await sam.lists.create(name: "Moving day")
                _ = try await sam.lists.share(list.id, with: adaTokens.accountId)
                let live = Task { () -> ListChange? in
                    for try await change in ada.lists.liveChanges(list.id) where change.text == "Tape" { return change }
                    return nil
                }
                let patience = Task {
                    try await Task.sleep(for: .seconds(30)); live.cancel()
                }
                _ = try await sam.lists.addItem(list.id, text: "Tape", quantity: 3)
                let seen = try await live.value
                patience.cancel()
                #expect(seen?.quantity == 3, "Ada's live stream shows Sam's new item: \(String(describing: seen))")
            }
        }
    }

    @Test("live streams held open through the gateway do not keep other requests to the same service waiting, and free their places once dropped")
    func manyStreams() async throws {
        let stack = try UpProcess.start(seed: false, log: nil)
        try await stack.run { stack in
            // Twelve streams from two people (a person may hold eight per process), more than
            // an HTTP client's usual eight connections to one host.
            var tokens: [String] = []
            for person in 0..<2 {
                let registered = try await http(
                    .POST, stack.gateway + "/v1/accounts",
                    json: [
                        "email": "streams-\(person)-\(UUID().uuidString.prefix(8).lowercased())@example.com",
                        "password": "a-long-enough-secret", "displayName": "Streamer \(person)",
                    ])
                #expect(registered.status == 201, "\(registered)")
                tokens.append(try #require(registered.json()["accessToken"] as? String))
            }
            var configuration = HTTPClient.Configuration()
            configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
            let streams = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            let (gateway, holders) = (stack.gateway, tokens)
            let held = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<12 {
                        group.addTask {
                            var request = HTTPClientRequest(url: gateway + "/v1/alerts/stream")
                            request.headers.add(name: "Accept", value: "text/event-stream")
                            request.headers.add(name: "Authorization", value: "Bearer \(holders[index % 2])")
                            let response = try await streams.execute(request, timeout: .seconds(600))
                            for try await _ in response.body {}
                        }
                    }
                    try await group.waitForAll()
                }
            }
            // Each stream answers its head at once; wait until the service holds all twelve.
            try await Task.sleep(for: .seconds(2))
            for attempt in 0..<3 {
                let nearby = try await http(.GET, stack.gateway + "/v1/nearby/listings?lat=52.37&lon=4.89&radius=1")
                #expect(nearby.status == 200, "request \(attempt) beside twelve streams: \(nearby)")
            }
            held.cancel()
            _ = await held.result

            // Streams dropped at the gateway free their places in the service at once: the
            // person who held six may open eight again. A gateway that held each until its
            // own write failed, 30 s on, would make the last two of these 429.
            for index in 0..<8 {
                let deadline = ContinuousClock.now + .seconds(10)
                var status: HTTPResponseStatus
                repeat {
                    var request = HTTPClientRequest(url: gateway + "/v1/alerts/stream")
                    request.headers.add(name: "Accept", value: "text/event-stream")
                    request.headers.add(name: "Authorization", value: "Bearer \(holders[0])")
                    // Held open, unread, until the client shuts down below.
                    status = try await streams.execute(request, timeout: .seconds(30)).status
                    if status == .tooManyRequests { try await Task.sleep(for: .milliseconds(200)) }
                } while status == .tooManyRequests && ContinuousClock.now < deadline
                #expect(status == .ok, "stream \(index + 1) of 8 opened after the others were dropped")
            }
            try? await streams.shutdown()
        }
    }

    @Test("a demo data file that is missing leaves the data directory unmarked, so the next start seeds again")
    func missingDemoData() async throws {
        try await SeededStacks.oneAtATime {
            let stack = try UpProcess.start(
                seed: true, log: nil,
                environment: ["COMMONS_BCRYPT_COST": "4", "COMMONS_CATALOG_FILE": "/nonexistent/catalog.json"])
            try await stack.run { stack in
                let unmarked = try await stack.waitForOutput { $0.contains("not marked as seeded") }
                #expect(unmarked, "\(stack.output)")
                #expect(stack.output.contains("Data/catalog.json not found"), "\(stack.output)")
                #expect(!FileManager.default.fileExists(atPath: stack.dataDirectory.appendingPathComponent("seeded").path))
            }
        }
    }

    @Test("a child that refuses its configuration is said so once and not started again; up still stops on SIGTERM")
    func badConfiguration() async throws {
        let stack = try UpProcess.start(seed: false, log: nil, environment: ["COMMONS_BCRYPT_COST": "banana"])
        let refused = try await stack.waitForOutput { $0.contains("accounts exited with status 2: bad configuration") }
        #expect(refused, "\(stack.output)")
        try await Task.sleep(for: .seconds(2)) // a restart would have come after 0.5 s
        #expect(stack.output.matches(of: /accounts started, pid/).count == 1, "\(stack.output)")
        #expect(stack.process.stderr.contains("COMMONS_BCRYPT_COST"), "the child's one line says what is wrong:\n\(stack.process.stderr)")
        kill(stack.pid, SIGTERM)
        let exited = try await waitUntil(timeout: .seconds(60)) { !stack.process.process.isRunning }
        if !exited { kill(stack.pid, SIGKILL) }
        #expect(exited, "\(stack.output)")
    }

    @Test("the children of up end with it, even when it is killed with SIGKILL")
    func childrenEndWithUp() async throws {
        let stack = try UpProcess.start(seed: false, log: nil)
        let child: pid_t
        do {
            try await stack.waitUntilReady()
            child = try #require(stack.childPids().first)
        } catch {
            kill(stack.pid, SIGKILL)
            throw error
        }
        kill(stack.pid, SIGKILL)
        // Generous: the child stops gracefully, and a busy disk can hold its last writes back.
        #expect(try await waitUntil(timeout: .seconds(60)) { isGone(child) }, "accounts (pid \(child)) outlived commons up")
    }

    @Test("seed fails with one line when no gateway answers")
    func seedWithoutStack() async throws {
        let port = try FreePorts.pick()
        let result = try await commons("seed", "--demo", "--gateway", "http://127.0.0.1:\(port)", log: nil)
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot reach http://127.0.0.1:\(port)"), "\(result)")
    }

    // GatewayRoutes and ServiceTable are compiled into this target too, from the symlinks in
    // FromCommons/: a test target cannot import the `commons` executable's module.
    @Test("the gateway routes a path to the service with the longest matching prefix")
    func routing() {
        let routes = GatewayRoutes(ServiceTable.services)
        let expected: [String: String?] = [
            "/v1/accounts": "accounts",
            "/v1/sessions/refresh": "accounts",
            "/v1/me": "accounts",
            "/v1/me/password": "accounts",
            "/v1/me/favorites": "shopping-lists",
            "/v1/me/favorites/42": "shopping-lists",
            "/v1/users/7": "accounts",
            "/v1/password-resets/confirm": "accounts",
            "/.well-known/jwks.json": "accounts",
            "/v1/listings": "listings",
            "/v1/images/1": "listings",
            "/v1/conversations/1/messages": "listings",
            "/v1/nearby": "geo-search",
            "/v1/area": "geo-search",
            "/v1/alerts/3": "geo-search",
            "/v1/organizations/5": "donations",
            "/v1/wallet": "donations",
            "/v1/donations": "donations",
            "/v1/donation-posts/2": "donations",
            "/v1/impact": "donations",
            "/v1/products/9/reviews": "shopping-lists",
            "/v1/lists/4/items": "shopping-lists",
            // Prefixes match whole segments only.
            "/v1/messages": nil,
            "/v1/meetings": nil,
            "/v1/accountsX": nil,
            "/v1/me-too": nil,
            "/v1/": nil,
            "/": nil,
            "/health/ready": nil,
            "/openapi.json": nil,
        ]
        for (path, service) in expected {
            #expect(routes.service(for: path) == service, "\(path)")
        }

        let nested = GatewayRoutes([
            StackService(name: "outer", port: 1, prefixes: ["/a"]),
            StackService(name: "inner", port: 2, prefixes: ["/a/b"]),
        ])
        #expect(nested.service(for: "/a/b/c") == "inner")
        #expect(nested.service(for: "/a/c") == "outer")
        #expect(nested.service(for: "/a/bc") == "outer")
    }

    @Test("event streams are told apart by their Accept header or their path, so the gateway gives them no deadline")
    func eventStreams() {
        #expect(GatewayRoutes.isEventStream(path: "/v1/alerts/stream", accept: nil))
        #expect(GatewayRoutes.isEventStream(path: "/v1/lists/4f1c/events", accept: "*/*"))
        #expect(GatewayRoutes.isEventStream(path: "/v1/anything", accept: "Text/Event-Stream"))
        #expect(!GatewayRoutes.isEventStream(path: "/v1/alerts/matches", accept: "application/json"))
        #expect(!GatewayRoutes.isEventStream(path: "/v1/lists/4f1c/items", accept: nil))
        #expect(GatewayRoutes.isEventStream(path: "/v1/lists/events", accept: nil))
        #expect(!GatewayRoutes.isEventStream(path: "/v1/lists/events/2", accept: nil))
        #expect(!GatewayRoutes.isEventStream(path: "/v1/lists/4f1c/events/2", accept: nil))
    }

    @Test("no path prefix, port or name belongs to two services")
    func table() {
        let services = ServiceTable.services
        let prefixes = services.flatMap(\.prefixes)
        #expect(Set(prefixes).count == prefixes.count)
        #expect(Set(services.map(\.port)).count == services.count)
        #expect(Set(services.map(\.name)).count == services.count)
        #expect(services.map(\.name) == ["accounts", "listings", "geo-search", "donations", "shopping-lists"])
    }
}

// MARK: A running `commons up`

/// A `commons up` process on free ports, with its own data directory.
@Suite("two stacks on one PostgreSQL log")
struct ReplicaStackTests {
    @Test("a photo uploaded through one stack's listings is served, with both sizes, by the other's; one's tokens work on the other")
    func photosAcrossReplicas() async throws {
        let log = try await Backend.postgres.makeLog()
        // Every accounts replica needs the same secret for the shared signing keys.
        let secret = Data((0..<32).map { _ in UInt8.random(in: .min ... .max) }).base64EncodedString()
        let environment = ["COMMONS_BCRYPT_COST": "4", "COMMONS_SIGNING_KEY_SECRET": secret]
        let first = try UpProcess.start(seed: false, log: log, environment: environment)
        let second = try UpProcess.start(seed: false, log: log, environment: environment)
        #expect(first.dataDirectory != second.dataDirectory)
        let photo = try #require(SamplePhoto.make(width: 1600, height: 1200, format: .jpeg, noise: 10))
        try await first.run { first in
            try await second.run { second in
                let registered = try await http(
                    .POST, first.gateway + "/v1/accounts",
                    json: [
                        "email": "replicas-\(UUID().uuidString.prefix(8))@example.com",
                        "password": "a-long-enough-secret", "displayName": "Replica",
                    ])
                #expect(registered.status == 201, "\(registered)")
                let token = try #require(registered.json()["accessToken"] as? String)
                let uploaded = try await http(
                    .POST, first.gateway + "/v1/images", bytes: photo,
                    headers: ["Authorization": "Bearer \(token)", "Content-Type": "image/jpeg", "Idempotency-Key": "replica-1"])
                #expect(uploaded.status == 201, "\(uploaded)")
                let id = try #require(uploaded.json()["id"] as? String).lowercased()
                let position = uploaded.headers["Commons-Position"].first ?? "0"
                var sizes: [String: Int] = [:]
                for size in ["original", "medium", "small"] {
                    var served = try await http(.GET, second.gateway + "/v1/images/\(id)?size=\(size)", headers: ["Commons-Min-Position": position])
                    for _ in 0..<15 where served.status == 503 {
                        try await Task.sleep(for: .seconds(1))
                        served = try await http(.GET, second.gateway + "/v1/images/\(id)?size=\(size)", headers: ["Commons-Min-Position": position])
                    }
                    #expect(served.status == 200, "\(size) through the second stack: \(served)")
                    sizes[size] = served.body.count
                }
                #expect(sizes["small"]! < sizes["medium"]! && sizes["medium"]! < sizes["original"]!)
                // The retry reaches the other replica: the first answer, stored once.
                let retried = try await http(
                    .POST, second.gateway + "/v1/images", bytes: photo,
                    headers: ["Authorization": "Bearer \(token)", "Content-Type": "image/jpeg", "Idempotency-Key": "replica-1"])
                #expect(retried.status == 201)
                #expect(retried.headers["Idempotent-Replayed"].first == "true")
            }
        }
        await log.close()
    }
}

struct UpProcess {
    let process: CommonsProcess
    let gateway: String
    let dataDirectory: URL

    var pid: pid_t { process.process.processIdentifier }
    var output: String { process.stdout }

    /// Starts `commons up` on a free gateway port, with every service port free too.
    static func start(seed: Bool, log: TestLog?, environment: [String: String] = ["COMMONS_BCRYPT_COST": "4"]) throws -> UpProcess {
        let gatewayPort = try FreePorts.pick()
        let offset = try FreePorts.offset(for: Array(8081...8085))
        let dataDirectory = try scratchDirectory().appendingPathComponent("data")
        var arguments = ["up", "--data-dir", dataDirectory.path, "--gateway-port", String(gatewayPort), "--port-offset", String(offset)]
        if !seed { arguments.append("--no-seed") }
        let process = try CommonsProcess(arguments, log: log, environment: environment)
        return UpProcess(process: process, gateway: "http://127.0.0.1:\(gatewayPort)", dataDirectory: dataDirectory)
    }

    /// Waits until the stack is ready, runs `body`, then stops the stack with SIGTERM and
    /// checks that it exits 0 within 15 s, leaving none of its children behind. The stack
    /// is stopped also when `body` throws.
    func run(_ body: (UpProcess) async throws -> Void) async throws {
        do {
            try await waitUntilReady()
            try await body(self)
        } catch {
            kill(pid, SIGKILL)
            throw error
        }
        let children = childPids()
        kill(pid, SIGTERM)
        let exited = try await waitUntil(timeout: .seconds(60)) { !process.process.isRunning }
        #expect(exited, "commons up did not exit within 15 s of SIGTERM:\n\(output)")
        guard exited else {
            kill(pid, SIGKILL)
            return
        }
        #expect(process.process.terminationStatus == 0, "\(output)\n\(process.stderr)")
        // The name column is as wide as the longest service name that was started.
        #expect(output.contains(/commons +\| stopped\n$/), "\(output)")
        for child in children {
            #expect(isGone(child), "accounts (pid \(child)) outlived commons up")
        }
    }

    /// How long a stack may take to get ready, or to seed: far longer than it does alone
    /// (about 10 s, and 40 s for the demo city with its pictures), because CI runs other
    /// suites on the same two cores meanwhile.
    static let patience = Duration.seconds(180)

    /// Polls the gateway's `/health/ready` until it answers 200, for at most ``patience``.
    func waitUntilReady() async throws {
        let deadline = ContinuousClock.now + Self.patience
        while ContinuousClock.now < deadline {
            guard process.process.isRunning else {
                throw TestSetupError("commons up exited with \(process.process.terminationStatus):\n\(output)\n\(process.stderr)")
            }
            if let answer = try? await http(.GET, gateway + "/health/ready"), answer.status == 200 { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw TestSetupError("commons up was not ready within \(Self.patience):\n\(output)\n\(process.stderr)")
    }

    /// The pids of the children it said it started, in order.
    func childPids() -> [pid_t] {
        output.matches(of: /accounts started, pid (\d+)/).compactMap { pid_t($0.1) }
    }

    func waitForOutput(_ condition: (String) -> Bool) async throws -> Bool {
        try await process.waitForOutput(timeout: Self.patience, condition)
    }
}

/// Polls `condition` until it holds; false after `timeout`.
private func waitUntil(timeout: Duration, _ condition: () -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(50))
    }
    return condition()
}

// MARK: Processes

/// A process's name, state and parent, from `/proc/<pid>/stat`; nil when there is no such process.
private func processStatus(_ pid: pid_t) -> (name: String, state: Character, parent: pid_t)? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
    else { return nil }
    // "pid (name) state ppid …": the name may hold spaces and parentheses.
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count >= 2, let state = fields[0].first, let parent = pid_t(fields[1]) else { return nil }
    return (String(stat[stat.index(after: open)..<close]), state, parent)
}

/// Whether `pid` has ended: no such process, or one that has exited and waits for its parent.
private func isGone(_ pid: pid_t) -> Bool {
    guard let status = processStatus(pid) else { return true }
    return status.state == "Z" || status.name != "accounts"
}

// MARK: HTTP

/// What a server answered.
/// The checkout the tests run from (three levels above this file).
private let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

struct HTTPAnswer: CustomStringConvertible {
    var status: Int
    var headers: HTTPHeaders
    var body: Data

    func json() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
    }

    var description: String { "\(status) \(String(decoding: body, as: UTF8.self))" }
}

func http(
    _ method: HTTPMethod, _ url: String, json: [String: String]? = nil, bytes: [UInt8]? = nil,
    headers: [String: String] = [:]
) async throws -> HTTPAnswer {
    var request = HTTPClientRequest(url: url)
    request.method = method
    for (name, value) in headers { request.headers.add(name: name, value: value) }
    if let json {
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: json)))
    } else if let bytes {
        request.body = .bytes(ByteBuffer(bytes: bytes))
    }
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
    let body = try await response.body.collect(upTo: 1 << 24)
    return HTTPAnswer(status: Int(response.status.code), headers: response.headers, body: Data(body.readableBytesView))
}

@Suite("The API document")
struct APIDocumentTests {
    @Test("deploy/docs/openapi.json, which nginx serves, is what `commons openapi` writes now")
    func committedDocumentIsCurrent() async throws {
        let printed = try await commons("openapi", log: nil)
        #expect(printed.status == 0, "\(printed.stderr)")
        let committed = try Data(contentsOf: repositoryRoot.appendingPathComponent("deploy/docs/openapi.json"))
        #expect(
            Data(printed.stdout.utf8) == committed,
            "deploy/docs/openapi.json is out of date: run `.build/debug/commons openapi --output deploy/docs/openapi.json`")
    }

    @Test("the merged document shares what it repeats: at most half the 446,306 bytes it took when every operation spelled out its answers")
    func sharesWhatItRepeats() async throws {
        let printed = try await commons("openapi", log: nil)
        #expect(printed.status == 0, "\(printed.stderr)")
        let size = printed.stdout.utf8.count
        #expect(size > 0 && size <= 223_153, "the merged document is \(size) bytes")
    }
}
