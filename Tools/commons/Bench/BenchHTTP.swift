import ArgumentParser
import AsyncHTTPClient
import CommonsAPI
import EventLog
import Foundation
import Logging
import ServiceKit
import ShoppingListsService
import TopologyKit

/// `commons bench http`: issue 17's hot read paths over HTTP, each beside `GET /health/live`
/// of the same process at the same concurrency, both driven by wrk (``Wrk``), a load
/// generator in C that leaves the cores to the server (the most that process does over
/// loopback beside a generator that costs next to nothing).
struct BenchHTTP: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "http",
        abstract: "Measure the listings feed, nearby search, product search and donation history over HTTP beside /health/live.",
        discussion: """
            Starts every service (the executables beside this one; a release build: swift build -c release) on a \
            PostgreSQL cluster of the run's own, as `commons bench topology` does, seeds people, listings, \
            donations and Data/catalog.json, then asks each service directly, not through nginx, with wrk \
            (apt-get install wrk).
            """)

    @Option(help: "Seconds to measure each side of each case, after a warm-up of one.")
    var seconds = 5

    @Option(help: "Rounds per case: each measures the case, then its ceiling; the ratio printed is the rounds' median, with their range.")
    var rounds = 3

    @Option(help: "Requests in flight at once.")
    var clients = 8

    @Option(help: "Listings to post before measuring (spread over the clients' people).")
    var listings = 400

    @Option(help: "Donations each person makes before measuring.")
    var donations = 30

    @Option(help: "The wrk executable, the load generator (Debian's wrk).")
    var wrk = "/usr/bin/wrk"

    @Flag(help: "Trace every request: the services export their spans to a collector in this process, which drops them.")
    var tracing = false

    func validate() throws {
        guard (1...600).contains(seconds) else { throw ValidationError("--seconds must be 1…600") }
        guard (1...20).contains(rounds) else { throw ValidationError("--rounds must be 1…20") }
        guard (1...256).contains(clients) else { throw ValidationError("--clients must be 1…256") }
        guard (0...100_000).contains(listings) else { throw ValidationError("--listings must be 0…100,000") }
        guard (1...1_000).contains(donations) else { throw ValidationError("--donations must be 1…1,000") }
    }

    func run() async throws {
        try Wrk(executable: wrk).check()
        Bench.note("starting every service on a PostgreSQL of the run's own")
        // Every request comes from 127.0.0.1 and counts against one address: the topology's
        // 100,000 a minute ran out within a run on a fast day (429 in the feed's second row).
        var settings = ["COMMONS_LOG_LEVEL": "warning", "COMMONS_RATE_LIMIT_PER_MINUTE": "1000000"]
        let collector = tracing ? try await DiscardingCollector.start() : nil
        if let collector { settings["OTEL_EXPORTER_OTLP_ENDPOINT"] = collector.url }
        defer { collector?.stop() }
        let (rows, cpu) = try await Topology.measuring(replicas: 1, settings: settings, connections: clients + 4) { try await measure($0, $1) }
        print(
            "HTTP read paths, \(clients) requests in flight, \(ProcessInfo.processInfo.activeProcessorCount) cores, "
                + "every service on one PostgreSQL; \(listings) listings, \(donations) donations a person"
                + (collector.map { "; traced, \($0.received) span exports received" } ?? ""))
        print(
            "(ceiling: GET /health/live of the same process, the same requests in flight; load from wrk, "
                + "\(Wrk.threads(connections: clients)) thread\(Wrk.threads(connections: clients) == 1 ? "" : "s"); \(rounds) round\(rounds == 1 ? "" : "s") of both, "
                + "medians, the ratios' range in brackets)")
        print(BenchRow.table(rows, ours: "ours req/s", ceiling: "ceiling req/s"))
        guard !cpu.isEmpty else { return }
        // Less at the mercy of a shared machine than a rate: what one request costs the service.
        print("\nthe service's CPU time per request (µs, medians of the rounds; the whole process, over the measured runs)")
        let cells =
            [["case", "ours", "/health/live", "ours − live"]]
            + cpu.map {
                [
                    $0.name.replacingOccurrences(of: " (req/s)", with: ""), String(Int($0.ours.rounded())), String(Int($0.live.rounded())),
                    String(Int(($0.ours - $0.live).rounded())),
                ]
            }
        let widths = cells[0].indices.map { column in cells.map { $0[column].count }.max() ?? 0 }
        for line in cells {
            print(
                line.indices.map { column in
                    let padding = String(repeating: " ", count: widths[column] - line[column].count)
                    return column == 0 ? line[column] + padding : padding + line[column]
                }.joined(separator: "  "))
        }
    }

    /// The categories the nearby case asks for, one at random a request; the listings are
    /// posted in them in turn, so that every search has a page to find rather than an
    /// empty one.
    static let nearbyCategories = ["Furniture", "Household", "Books", "Clothes", "Electronics"]

    /// A case's CPU time per request in its service, beside `/health/live`'s, in µs.
    typealias CPURow = (name: String, ours: Double, live: Double)

    private func measure(_ topology: Topology, _ client: HTTPClient) async throws -> (rows: [BenchRow], cpu: [CPURow]) {
        let api = SeedClient(gateway: topology.gatewayURL.absoluteString, client: client)
        Bench.note("registering \(clients) people with wallets, lists and a listing each; a verified organisation")
        let (workload, _) = try await MixedWorkload.prepare(api: api, people: clients, admin: (topology.adminEmail, topology.adminPassword))
        let people = workload.people
        Bench.note("posting \(listings) listings and making \(donations * clients) donations")
        let (newest, organization) = (LatestPosition(), workload.organization)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for person in people {
                group.addTask {
                    for number in stride(from: person.index, to: listings, by: people.count) {
                        var listing = MixedWorkload.listing(number + 1_000)
                        listing.category = ListingCategory(rawValue: Self.nearbyCategories[number % Self.nearbyCategories.count])
                        let posted = try await api.post("/v1/listings", listing, token: person.token, idempotencyKey: UUID().uuidString)
                        guard posted.status == 201 else { throw CommandFailure("posting a listing: \(posted.status) \(posted.detail)") }
                        await newest.note(posted.position)
                    }
                    for _ in 0..<donations {
                        let made = try await api.post(
                            "/v1/donations", NewDonation(organization: organization, amountMinor: 100, currency: .usd),
                            token: person.token, idempotencyKey: UUID().uuidString)
                        guard made.status == 201 else { throw CommandFailure("donating: \(made.status) \(made.detail)") }
                        await newest.note(made.position)
                    }
                }
            }
            try await group.waitForAll()
        }
        try await importCatalogue(topology)

        // Every read model has everything before anything is measured.
        let seen = await newest.position.map { ["Commons-Min-Position": $0] } ?? [:]
        func direct(_ service: Topology.Service) -> SeedClient {
            SeedClient(gateway: "http://127.0.0.1:\(topology.port(service))", client: client)
        }
        let (listingsAPI, geo, shopping, donationsAPI) = (direct(.listings), direct(.geoSearch), direct(.shoppingLists), direct(.donations))
        for (service, path) in [
            (listingsAPI, "/v1/listings?limit=1"), (geo, "/v1/nearby/listings?lat=52.3676&lon=4.9041&radius=5&limit=1"),
            (donationsAPI, "/v1/organizations?limit=1"),
        ] {
            let answer = try await service.get(path, headers: seen)
            guard answer.status == 200 else { throw CommandFailure("\(path) did not catch up: \(answer.status) \(answer.detail)") }
        }
        try await waitForProducts(shopping)

        let (wrk, seconds) = (Wrk(executable: wrk), seconds)
        var cpu: [CPURow] = []
        /// Requests a second, and the service's CPU time per request (µs) when its process is
        /// known: the CPU it used over the measurement over the requests wrk counted in it.
        func rate(
            _ service: Topology.Service, pid: pid_t?, tokens: [String] = [], headers: [String: String] = [:],
            _ path: () -> String
        ) async throws -> (rate: Double, cpu: Double?) {
            let paths = (0..<Wrk.requestsPerScript).map { _ in path() }
            let fields = paths.indices.map { index in
                tokens.isEmpty ? headers : headers.merging(["Authorization": "Bearer \(tokens[index % tokens.count])"]) { $1 }
            }
            var cpuBefore: Double?
            let run = try await wrk.measure(
                base: "http://127.0.0.1:\(topology.port(service))", paths: paths, headers: fields,
                connections: clients, seconds: seconds
            ) { cpuBefore = pid.flatMap(Bench.cpuSeconds) }
            guard let cpuBefore, let cpuAfter = pid.flatMap(Bench.cpuSeconds), run.requests > 0 else { return (run.rate, nil) }
            return (run.rate, (cpuAfter - cpuBefore) / Double(run.requests) * 1_000_000)
        }
        func row(
            _ name: String, _ which: Topology.Service, tokens: [String] = [], headers: [String: String] = [:],
            aim: BenchRow.Aim = .ratio(0.5), _ path: @escaping @Sendable () -> String
        ) async throws -> BenchRow {
            Bench.note(name)
            let pid = await topology.processIdentifier(which)
            var (oursCPU, liveCPU) = ([Double](), [Double]())
            let row = try await BenchRow.interleaved(name, rounds: rounds, aim: aim) { _ in
                let (rate, cpu) = try await rate(which, pid: pid, tokens: tokens, headers: headers, path)
                if let cpu { oursCPU.append(cpu) }
                return rate
            } ceiling: { _ in
                let (rate, cpu) = try await rate(which, pid: pid) { "/health/live" }
                if let cpu { liveCPU.append(cpu) }
                return rate
            }
            if !oursCPU.isEmpty, !liveCPU.isEmpty {
                cpu.append((name, BenchRow.median(oursCPU), BenchRow.median(liveCPU)))
            }
            return row
        }
        let products = ["milk", "bread", "apple", "rice", "coffee", "cheese"]
        let noCache = ["Cache-Control": "no-cache"]
        let rows = [
            try await row("listings feed, newest 20 (req/s)", .listings) { "/v1/listings?limit=20" },
            // Feed, product search and history pages are kept while their read model is unchanged;
            // `no-cache` reads them afresh every time: what a page costs that is not kept (the
            // first after a write, or one no one asked for since).
            try await row("  the feed page, not kept (no-cache)", .listings, headers: noCache, aim: .none) { "/v1/listings?limit=20" },
            try await row("nearby 5 km + category (req/s)", .geoSearch) {
                let (lat, lon) = (MixedWorkload.centre.lat + .random(in: -0.03...0.03), MixedWorkload.centre.lon + .random(in: -0.05...0.05))
                return "/v1/nearby/listings?lat=\(lat)&lon=\(lon)&radius=5&category=\(Self.nearbyCategories.randomElement()!)&limit=20"
            },
            try await row("product search, 20 a page (req/s)", .shoppingLists) { "/v1/products?q=\(products.randomElement()!)&limit=20" },
            try await row("  the search page, not kept (no-cache)", .shoppingLists, headers: noCache, aim: .none) {
                "/v1/products?q=\(products.randomElement()!)&limit=20"
            },
            try await row("donation history, 20 a page (req/s)", .donations, tokens: people.map(\.token)) { "/v1/donations?limit=20" },
            try await row("  the history page, not kept (no-cache)", .donations, tokens: people.map(\.token), headers: noCache, aim: .none) {
                "/v1/donations?limit=20"
            },
        ]
        return (rows, cpu)
    }

    /// Data/catalog.json into the run's log, as `commons catalog import` does.
    private func importCatalogue(_ topology: Topology) async throws {
        guard let file = DemoDataFile.locate("catalog.json", overriddenBy: "COMMONS_CATALOG_FILE") else {
            throw CommandFailure("bench: Data/catalog.json not found (set COMMONS_CATALOG_FILE)")
        }
        var logger = Logger(label: "commons")
        logger.logLevel = .critical
        let store = try await EventStoreLocation(await topology.eventStoreURL, dataDirectory: NSTemporaryDirectory()).open(logger: logger)
        do {
            _ = try await CatalogImport.run(data: try Data(contentsOf: file), into: store)
        } catch {
            await store.shutdown()
            throw error
        }
        await store.shutdown()
    }

    /// Waits (at most a minute) until the catalogue is searchable.
    private func waitForProducts(_ shopping: SeedClient) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let answer = try await shopping.get("/v1/products?q=milk&limit=1")
            if answer.status == 200, (try? answer.decode(ProductPage.self).items.isEmpty) == false { return }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw CommandFailure("the catalogue was not searchable within a minute")
    }

    private struct ProductPage: Decodable {
        struct Item: Decodable {}
        var items: [Item]
    }
}

/// The newest `Commons-Position` seen.
private actor LatestPosition {
    private(set) var position: String?

    func note(_ candidate: String?) {
        guard let candidate, (Int64(candidate) ?? 0) > (position.flatMap { Int64($0) } ?? 0) else { return }
        position = candidate
    }
}
