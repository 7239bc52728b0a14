import CommonsClient
import Foundation
import Synchronization
import Testing
import TopologyKit

/// The compose file scaled: two processes of every service, accounts included, each with its
/// own read model on the one PostgreSQL log (a cluster of the suite's own, which it stops),
/// behind nginx with an upstream group a service.
@Suite("end to end: two replicas of every service", .topology(replicas: 2, ownPostgres: true), .serialized)
struct ReplicaTopologyTests {
    @Test(
        "one replica of each service SIGKILLed while 4 people post through the gateway: every post lands once, and both replicas of each read model agree"
    )
    func killOneReplicaOfEach() async throws {
        let topology = try Topology.running()
        try topology.require(.accounts, .listings, .geoSearch, .donations, .shoppingLists)
        let crowd = try await Crowd(topology)
        let writers = crowd.post()
        try await Task.sleep(for: .milliseconds(400))
        for service in Topology.Service.allCases { try await topology.kill(service, replica: 1) }
        let posted = try await writers.value
        try await crowd.expectEachPostOnce(posted)

        // The killed replicas start again on their own read models and catch up; then every
        // replica answers the same, each asked directly with the position of the last write.
        for service in Topology.Service.allCases { try await topology.restart(service, replica: 1) }
        try await crowd.expectReplicasAgree(on: posted)
    }

    @Test("a replica started late, with no read model, reports ready only once it has caught up with the log")
    func lateReplica() async throws {
        let topology = try Topology.running()
        try topology.require(.accounts, .listings, .geoSearch)
        let crowd = try await Crowd(topology)
        try await topology.kill(.geoSearch, replica: 1)
        let posted = try await crowd.post().value
        try await topology.restart(.geoSearch, replica: 1, fresh: true)
        // Asked the moment it first says ready, without a position to wait for: it has every post.
        let direct = CommonsClient(baseURL: URL(string: "http://127.0.0.1:\(topology.port(.geoSearch, replica: 1))")!, retry: Crowd.patience)
        #expect(try await direct.geo.countListings(.nearby(lat: crowd.place.lat, lon: crowd.place.lon, radius: 5)) == posted.count)
    }

    @Test(
        "a replica of geo-search and of listings joins from the other's snapshot while 4 people post: it reports ready with every post, and both agree"
    )
    func replicaFromSnapshot() async throws {
        let topology = try Topology.running()
        try topology.require(.accounts, .listings, .geoSearch)
        let crowd = try await Crowd(topology)
        let first = try await crowd.post().value
        for service in [Topology.Service.geoSearch, .listings] { try await topology.kill(service, replica: 1) }
        let posting = crowd.post()
        for service in [Topology.Service.geoSearch, .listings] {
            try await topology.restart(service, replica: 1, fresh: true, snapshotFrom: 0)
            #expect(
                topology.tail(service, replica: 1, lines: 400).contains("started from a read-model snapshot"),
                "\(service.rawValue) took its peer's snapshot")
        }
        let posted = first + (try await posting.value)
        try await crowd.expectEachPostOnce(posted, rounds: 2)
        try await crowd.expectReplicasAgree(on: posted)
    }

    @Test(
        "a rolling restart of every replica of every service while 4 people post and read: no answer is a 5xx, and every post lands once"
    )
    func rollingRestart() async throws {
        let topology = try Topology.running()
        try topology.require(.accounts, .listings, .geoSearch)
        // Phones that never retry: a 5xx from the gateway would fail a post or a read.
        let crowd = try await Crowd(topology, retry: RetryPolicy(attempts: 1))
        let restarting = Mutex(true)
        let posting = crowd.postAndRead(while: { restarting.withLock { $0 } })
        do {
            for service in Topology.Service.allCases {
                for replica in 0..<topology.replicas { try await topology.restartGracefully(service, replica: replica) }
            }
        } catch {
            restarting.withLock { $0 = false }
            _ = await posting.result
            throw error
        }
        restarting.withLock { $0 = false }
        let byPhone = try await posting.value
        for (phone, posted) in zip(crowd.phones, byPhone) {
            let mine = try await phone.listings.feed(ListingFeedQuery(author: "me", limit: 100))
            #expect(Set(mine.items.map(\.id)) == Set(posted), "each post once")
        }
        try await crowd.expectReplicasAgree(on: byPhone.flatMap { $0 })
    }

    @Test("through the gateway the console sees every replica of a service with its projections, and replays one or all")
    func consoleSeesEveryReplica() async throws {
        let topology = try Topology.running()
        try topology.require(.accounts, .listings)
        let tokens = try await E2E.app(topology, device: "admin console").accounts.signIn(
            email: topology.adminEmail, password: topology.adminPassword)
        let transport = URLSessionTransport(timeout: 30)
        func call(_ method: String, _ path: String) async throws -> (status: Int, json: [String: Any]) {
            let response = try await transport.send(
                HTTPRequestData(
                    method: method, url: URL(string: topology.gatewayURL.absoluteString + path)!,
                    headers: ["Authorization": "Bearer \(tokens.accessToken)", "User-Agent": "end-to-end console"]))
            return (response.status, (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:])
        }
        func replicas() async throws -> [[String: Any]] {
            let (status, view) = try await call("GET", "/v1/admin/listings/replicas")
            #expect(status == 200, "\(view)")
            return view["replicas"] as? [[String: Any]] ?? []
        }
        func replays() async throws -> [String: String] {
            Dictionary(
                uniqueKeysWithValues: try await replicas().map { replica in
                    let view = replica["projections"] as? [String: Any]
                    return (replica["address"] as? String ?? "", (view?["replay"] as? [String: Any])?["state"] as? String ?? "none")
                })
        }
        func waitUntilNoneRuns() async throws {
            let deadline = ContinuousClock.now + .seconds(120)
            while try await replays().values.contains("running"), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(200)) }
        }

        let listed = try await replicas()
        #expect(listed.count == topology.replicas, "every replica is listed: \(listed)")
        let names = Set(listed.compactMap { ($0["projections"] as? [String: Any])?["replica"] as? String })
        #expect(names.count == topology.replicas, "each answered for itself")
        #expect(listed.allSatisfy { (($0["projections"] as? [String: Any])?["projections"] as? [Any])?.isEmpty == false })

        // One replica: only it replays.
        try await waitUntilNoneRuns()
        let before = try await replays()
        let first = try #require(listed.first?["address"] as? String)
        let one = try await call(
            "POST", "/v1/admin/listings/replicas/replay?address=\(first.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
        #expect(one.status == 202)
        #expect((one.json["replicas"] as? [[String: Any]])?.map { $0["status"] as? Int } == [202])
        try await waitUntilNoneRuns()
        let afterOne = try await replays()
        #expect(afterOne[first] == "done")
        for (address, state) in afterOne where address != first { #expect(state == before[address], "\(address) did not replay") }

        // All of them.
        let all = try await call("POST", "/v1/admin/listings/replicas/replay")
        #expect(all.status == 202)
        #expect((all.json["replicas"] as? [[String: Any]])?.map { $0["status"] as? Int } == Array(repeating: 202, count: topology.replicas))
        try await waitUntilNoneRuns()
        #expect(try await replays().values.allSatisfy { $0 == "done" })
        #expect(try await call("POST", "/v1/admin/listings/replicas/replay?address=http%3A%2F%2F127.0.0.1%3A1").status == 404)
    }

    @Test(
        "a replica of each service whose read-model file is damaged removes it, rebuilds from the log, reports ready only then, and agrees with the other"
    )
    func damagedReadModels() async throws {
        let topology = try Topology.running()
        try topology.require(.accounts, .listings, .geoSearch, .donations, .shoppingLists)
        let crowd = try await Crowd(topology)
        let posted = try await crowd.post().value
        for (n, service) in Topology.Service.allCases.enumerated() {
            try await topology.kill(service, replica: 1)
            let data = topology.runDirectory.appendingPathComponent("data/\(service.rawValue)-2")
            let live = try String(contentsOf: data.appendingPathComponent("\(service.rawValue).current"), encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            // A disk fault: half the services lose the file's header ("file is not a database"), the
            // others keep it but lose the schema page behind it ("database disk image is malformed").
            try Self.damage(data.appendingPathComponent(live), at: n.isMultiple(of: 2) ? 0..<100 : 100..<4_096)
            try await topology.restart(service, replica: 1)
            // A damaged copy would hold rows that erasure no longer reaches.
            #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent(live).path), "\(service.rawValue): the damaged file is gone")
            #expect(topology.tail(service, replica: 1, lines: 200).contains("read model damaged"), "\(service.rawValue) says so loudly")
        }
        try await crowd.expectReplicasAgree(on: posted)
    }

    /// Overwrites `bytes` of a SQLite file with garbage and drops its WAL, whose pages would
    /// otherwise stand in for the damaged ones.
    private static func damage(_ file: URL, at bytes: Range<Int>) throws {
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
        let handle = try FileHandle(forWritingTo: file)
        try handle.seek(toOffset: UInt64(bytes.lowerBound))
        try handle.write(contentsOf: Data(repeating: 0xA5, count: bytes.count))
        try handle.close()
    }

    @Test(
        "PostgreSQL stopped for 4 s while 4 people post through the gateway: every replica reports not ready, every post lands once, and all recover unaided"
    )
    func postgresRestarted() async throws {
        let topology = try Topology.running()
        try topology.require(.accounts, .listings, .geoSearch, .donations, .shoppingLists)
        let crowd = try await Crowd(topology)
        let writers = crowd.post()
        try await Task.sleep(for: .milliseconds(300))
        try await topology.stopPostgres()
        let during = await topology.readiness()
        #expect(during.values.allSatisfy { $0 == 503 }, "every replica says it is not ready while the log is away: \(during)")
        try await Task.sleep(for: .seconds(4))
        try await topology.startPostgres()
        let back = ContinuousClock.now
        let recovered = Task {
            try await topology.waitUntilReady(Topology.Service.allCases, patience: .seconds(60))
            return ContinuousClock.now - back
        }

        let posted = try await writers.value
        try await crowd.expectEachPostOnce(posted)
        print("end-to-end: every replica ready again \(try await recovered.value) after PostgreSQL came back")
        try await crowd.expectReplicasAgree(on: posted)
    }
}

/// Four people with patient phones, posting through the gateway.
private struct Crowd {
    let topology: Topology
    let phones: [CommonsClient]
    let place = E2E.place()
    let perPerson = 8
    /// Phones that keep trying for over a minute with the same key, as an app would: a post
    /// that was running on a killed replica holds its key until its lease ends.
    static let patience = RetryPolicy(attempts: 90, initialDelay: .milliseconds(250), maximumDelay: .seconds(1))

    init(_ topology: Topology, retry: RetryPolicy = Self.patience) async throws {
        self.topology = topology
        var phones: [CommonsClient] = []
        for n in 0..<4 {
            let (_, _, email) = try await E2E.person(topology, "Replica\(n)")
            let phone = CommonsClient(baseURL: topology.gatewayURL, retry: retry, userAgent: "replica test phone \(n)")
            _ = try await phone.accounts.signIn(email: email, password: E2E.password)
            phones.append(phone)
        }
        self.phones = phones
    }

    /// Each person posts, then reads the feed and a nearby search, about twice a second while
    /// `going` holds (at most 100 posts each); the ids each posted, by phone.
    func postAndRead(while going: @escaping @Sendable () -> Bool) -> Task<[[UUID]], any Error> {
        let (phones, place) = (phones, place)
        return Task {
            try await withThrowingTaskGroup(of: (Int, [UUID]).self) { group in
                for (n, phone) in phones.enumerated() {
                    group.addTask {
                        var ids: [UUID] = []
                        while going(), ids.count < 100 {
                            let spot = Coordinate(lat: place.lat + Double(n) * 0.001, lon: place.lon + Double(ids.count % 20) * 0.0005)
                            ids.append(
                                try await phone.listings.post(
                                    NewListing(title: "Rolling \(n) item \(ids.count)", category: "Other", condition: "good", pickupLocation: spot)
                                ).id)
                            _ = try await phone.listings.feed(ListingFeedQuery(limit: 20))
                            _ = try await phone.geo.countListings(.nearby(lat: place.lat, lon: place.lon, radius: 5))
                            // Well within the gateway's 50 requests a second from one address, and
                            // each account's 600 a minute.
                            try await Task.sleep(for: .milliseconds(400))
                        }
                        return (n, ids)
                    }
                }
                var byPhone = Array(repeating: [UUID](), count: phones.count)
                for try await (n, ids) in group { byPhone[n] = ids }
                return byPhone
            }
        }
    }

    /// Each person posts `perPerson` listings, one after another; the ids of all.
    func post() -> Task<[UUID], any Error> {
        let (phones, place, perPerson) = (phones, place, perPerson)
        return Task {
            try await withThrowingTaskGroup(of: [UUID].self) { group in
                for (n, phone) in phones.enumerated() {
                    group.addTask {
                        var ids: [UUID] = []
                        for i in 0..<perPerson {
                            let spot = Coordinate(lat: place.lat + Double(n) * 0.001, lon: place.lon + Double(i) * 0.0005)
                            ids.append(
                                try await phone.listings.post(
                                    NewListing(
                                        title: "Replica \(n) item \(i)", category: "Other",
                                        condition: "good", pickupLocation: spot)
                                ).id)
                        }
                        return ids
                    }
                }
                return try await group.reduce(into: [UUID]()) { $0 += $1 }
            }
        }
    }

    /// Through the gateway: each person's posts of `rounds` rounds of ``post()``, each once.
    func expectEachPostOnce(_ posted: [UUID], rounds: Int = 1) async throws {
        #expect(posted.count == phones.count * perPerson * rounds)
        #expect(Set(posted).count == posted.count)
        for phone in phones {
            let mine = try await phone.listings.feed(ListingFeedQuery(author: "me", limit: 50))
            #expect(mine.items.count == perPerson * rounds, "each post once: \(mine.items.map(\.title).sorted())")
        }
    }

    /// Every replica of geo-search finds every post, and every replica of listings serves the
    /// same listings at the same versions, each asked directly with the last write's position.
    func expectReplicasAgree(on posted: [UUID]) async throws {
        var counts: [Int] = []
        var views: [[String]] = []
        for replica in 0..<topology.replicas {
            let geo = CommonsClient(baseURL: URL(string: "http://127.0.0.1:\(topology.port(.geoSearch, replica: replica))")!, retry: Self.patience)
            let listings = CommonsClient(
                baseURL: URL(string: "http://127.0.0.1:\(topology.port(.listings, replica: replica))")!, retry: Self.patience)
            for phone in phones {
                E2E.carryPosition(from: phone, to: geo)
                E2E.carryPosition(from: phone, to: listings)
            }
            counts.append(try await geo.geo.countListings(.nearby(lat: place.lat, lon: place.lon, radius: 5)))
            var view: [String] = []
            for id in posted.sorted(by: { $0.uuidString < $1.uuidString }) {
                let listing = try await listings.listings.get(id)
                view.append("\(listing.value.title) v\(listing.etag?.version ?? -1)")
            }
            views.append(view)
        }
        #expect(counts == Array(repeating: posted.count, count: topology.replicas), "geo-search on every replica finds every post")
        #expect(views.count == 2 && views[0] == views[1], "both listings replicas serve the same listings")
    }
}
