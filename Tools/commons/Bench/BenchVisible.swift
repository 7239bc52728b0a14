import ArgumentParser
import AsyncHTTPClient
import CommonsAPI
import Foundation
import Synchronization
import TopologyKit

/// `commons bench visible`: how long a listing takes from its post to geo-search's answer
/// that shows it, through the gateway on the PostgreSQL log, as the SDK sees it: the post,
/// then a nearby search carrying the post's `Commons-Position` as `Commons-Min-Position`
/// (geo-search answers once its read model holds that position). Timed alone, then while
/// other people post as fast as they can, then while they post on a schedule, each at a
/// fixed pace: flat out, the 9 posters on 2 cores make the wait a matter of posts a second
/// (Little's law); on a schedule below that, it is a post's latency under a given load.
struct BenchVisible: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "visible",
        abstract: "Time a listing from its post until a nearby search through the gateway shows it, alone and beside other writers.",
        discussion: """
            Starts the compose topology (the service binaries beside this one, a release build, behind nginx with \
            deploy/nginx.conf, on a PostgreSQL cluster of the run's own), as `commons bench topology` does.
            """)

    @Option(help: "Listings to time in each case, after a warm-up of 20.")
    var posts = 400

    @Option(help: "Other people posting at the same time in the second case, each one post after another.")
    var writers = 8

    @Option(help: "Posts a second from each other person in the third case, on a schedule (0 skips it).")
    var pacedRate = 25

    func validate() throws {
        guard (10...100_000).contains(posts) else { throw ValidationError("--posts must be 10…100,000") }
        guard (1...64).contains(writers) else { throw ValidationError("--writers must be 1…64") }
        guard (0...1_000).contains(pacedRate) else { throw ValidationError("--paced-rate must be 0…1,000") }
    }

    /// Issue 17's aims for p99, in milliseconds: alone, and beside the other writers.
    static let aims = (alone: 5.0, loaded: 20.0)

    func run() async throws {
        Bench.note("starting one of each service behind nginx on a PostgreSQL of the run's own")
        let report = try await Topology.measuring(replicas: 1, settings: ["COMMONS_LOG_LEVEL": "warning"], connections: writers + 8) {
            topology, client in try await measure(SeedClient(gateway: topology.gatewayURL.absoluteString, client: client), topology)
        }
        print(report)
    }

    private func measure(_ api: SeedClient, _ topology: Topology) async throws -> String {
        Bench.note("registering \(writers + 1) people")
        let (workload, _) = try await MixedWorkload.prepare(api: api, people: writers + 1, admin: (topology.adminEmail, topology.adminPassword))
        let timer = VisibilityTimer(api: api, token: workload.people[0].token)
        _ = try await timer.samples(20)

        let processes = await topology.processesToMeasure()
        Bench.note("timing \(posts) listings alone")
        let aloneMeter = CPUMeter(processes)
        let alone = try await timer.samples(posts)
        let aloneCPU = aloneMeter.perPost(posts)
        let floorAlone = try await timer.floor(posts)

        Bench.note("timing \(posts) listings while \(writers) others post")
        let background = BackgroundPosters(api: api, people: Array(workload.people.dropFirst()))
        let began = ContinuousClock.now
        let running = Task { try await background.run() }
        try await Task.sleep(for: .seconds(1))
        let othersBefore = background.posted
        let loadedMeter = CPUMeter(processes)
        let loaded = try await timer.samples(posts)
        let loadedCPU = loadedMeter.perPost(posts + background.posted - othersBefore)
        let floorLoaded = try await timer.floor(posts)
        background.stop()
        let others = try await running.value
        let elapsed = ContinuousClock.now - began

        var pacedLine = ""
        if pacedRate > 0 {
            Bench.note("timing \(posts) listings while \(writers) others post \(pacedRate) a second each")
            let paced = BackgroundPosters(api: api, people: Array(workload.people.dropFirst()), interval: .seconds(1) / pacedRate)
            let pacedBegan = ContinuousClock.now
            let pacing = Task { try await paced.run() }
            try await Task.sleep(for: .seconds(1))
            let samples = try await timer.samples(posts)
            paced.stop()
            let pacedOthers = try await pacing.value
            let rate = Double(pacedOthers) / ((ContinuousClock.now - pacedBegan) / .seconds(1))
            pacedLine =
                "\n" + Self.line("while \(writers) others post \(pacedRate)/s each", samples.visible, floorLoaded, aim: nil)
                + String(format: "    (they posted %.0f a second; no aim)", rate)
        }

        let cores = ProcessInfo.processInfo.activeProcessorCount
        return """
            post a listing → visible in geo-search: nginx (deploy/nginx.conf), one of each service, PostgreSQL log of the run's own, \(cores) CPUs
            each: POST /v1/listings, then GET /v1/nearby/listings around it with its Commons-Min-Position; timed until the listing is in the answer
            (floor: the same two round trips answered by nginx itself, GET /health twice, timed beside it)
            case                                      p50 ms   p99 ms  max ms    floor p50  floor p99   aim (p99)
            \(Self.line("alone, one after another", alone.visible, floorAlone, aim: Self.aims.alone))
            \(Self.line("  of which the post (answered 201)", alone.post, floorAlone, aim: nil))
            \(Self.line("while \(writers) others post", loaded.visible, floorLoaded, aim: Self.aims.loaded))
            \(Self.line("  of which the post (answered 201)", loaded.post, floorLoaded, aim: nil))\(pacedLine)
            the \(writers) others posted \(others) listings, \(String(format: "%.0f", Double(others) / (elapsed / .seconds(1)))) a second

            \(CPUMeter.report(alone: aloneCPU, loaded: loadedCPU, writers: writers))
            """
    }

    private static func line(_ name: String, _ ours: Latencies, _ floor: Latencies, aim: Double?) -> String {
        let figures =
            name.padding(toLength: 40, withPad: " ", startingAt: 0)
            + String(format: "%8.2f %8.2f %7.1f", ours.milliseconds(0.5), ours.milliseconds(0.99), ours.milliseconds(1))
        guard let aim else { return figures }
        let met = ours.milliseconds(0.99) <= aim ? "met" : "MISSED"
        return figures + String(format: "    %9.2f  %9.2f   ≤ %.0f ms  ", floor.milliseconds(0.5), floor.milliseconds(0.99), aim) + met
    }
}

/// Latencies, for quantiles.
struct Latencies: Sendable {
    var samples: [Duration] = []

    /// The `quantile` (0…1) in milliseconds; 1 is the largest.
    func milliseconds(_ quantile: Double) -> Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return 0 }
        let index = min(sorted.count - 1, max(0, Int((Double(sorted.count) * quantile).rounded(.up)) - 1))
        return sorted[index] / .milliseconds(1)
    }
}

/// Posts listings one after another and times each until geo-search shows it. Each lands
/// on its own spot of a grid 3 km apart, far from the other writers', and is searched for
/// within 1 km of where it was posted (the public location moves it less than 500 m).
private final class VisibilityTimer: Sendable {
    let api: SeedClient
    let token: String
    private let counter = Atomic<Int>(0)

    init(api: SeedClient, token: String) {
        self.api = api
        self.token = token
    }

    /// Whole times (post to visible), and the posts' own part of them.
    func samples(_ count: Int) async throws -> (visible: Latencies, post: Latencies) {
        var (visible, post) = (Latencies(), Latencies())
        for _ in 0..<count {
            let (whole, posting) = try await sample()
            visible.samples.append(whole)
            post.samples.append(posting)
        }
        return (visible, post)
    }

    /// Two `GET /health` answered by nginx itself, one after the other, `count` times.
    func floor(_ count: Int) async throws -> Latencies {
        var latencies = Latencies()
        let clock = ContinuousClock()
        for _ in 0..<count {
            let start = clock.now
            for _ in 0..<2 {
                let answer = try await api.get("/health")
                guard answer.status == 200 else { throw CommandFailure("the gateway's /health answered \(answer.status)") }
            }
            latencies.samples.append(clock.now - start)
        }
        return latencies
    }

    private func sample() async throws -> (visible: Duration, post: Duration) {
        let number = counter.wrappingAdd(1, ordering: .relaxed).oldValue
        let (lat, lon) = (50.5 + Double(number / 60 % 60) * 0.027, 3.0 + Double(number % 60) * 0.045)
        var listing = MixedWorkload.listing(number)
        listing.pickupLocation = Coordinate(lat: lat, lon: lon)
        let clock = ContinuousClock()
        let start = clock.now
        let posted = try await api.post("/v1/listings", listing, token: token, idempotencyKey: UUID().uuidString)
        let postElapsed = clock.now - start
        guard posted.status == 201, let position = posted.position else {
            throw CommandFailure("posting a listing: \(posted.status) \(posted.detail)")
        }
        let found = try await api.get(
            "/v1/nearby/listings?lat=\(lat)&lon=\(lon)&radius=1&limit=50",
            headers: ["Commons-Min-Position": position])
        let elapsed = clock.now - start
        guard found.status == 200 else { throw CommandFailure("nearby: \(found.status) \(found.detail)") }
        let id = try posted.id()
        guard try found.itemIds().contains(id) else {
            throw CommandFailure("listing \(id) was not in geo-search's answer at position \(position)")
        }
        return (elapsed, postElapsed)
    }
}

/// People who post listings until stopped, near the centre: one after another, or each on a
/// schedule of one post every `interval` (a late post goes at once, and the schedule keeps
/// its beat rather than waiting a whole interval after it).
private final class BackgroundPosters: Sendable {
    let api: SeedClient
    let people: [MixedWorkload.Person]
    let interval: Duration?
    private let stopped = Atomic<Bool>(false)
    private let count = Atomic<Int>(0)

    init(api: SeedClient, people: [MixedWorkload.Person], interval: Duration? = nil) {
        self.api = api
        self.people = people
        self.interval = interval
    }

    func stop() { stopped.store(true, ordering: .relaxed) }

    /// How many they have posted so far.
    var posted: Int { count.load(ordering: .relaxed) }

    /// Posts until ``stop()``; returns how many were posted.
    func run() async throws -> Int {
        try await withThrowingTaskGroup(of: Int.self) { group in
            let began = ContinuousClock.now
            for (order, person) in people.enumerated() {
                group.addTask { [self] in
                    var posted = 0
                    // Each person's beat a share of the interval after the last one's, so that they do not post all at once.
                    let start = began + (interval ?? .zero) * order / people.count
                    while !self.stopped.load(ordering: .relaxed) {
                        if let interval = self.interval { try await Task.sleep(until: start + interval * posted, clock: .continuous) }
                        let answer = try await self.api.post(
                            "/v1/listings", MixedWorkload.listing(10_000 + person.index * 100_000 + posted),
                            token: person.token, idempotencyKey: UUID().uuidString)
                        guard answer.status == 201 else { throw CommandFailure("posting a listing: \(answer.status) \(answer.detail)") }
                        posted += 1
                        self.count.add(1, ordering: .relaxed)
                    }
                    return posted
                }
            }
            return try await group.reduce(0, +)
        }
    }
}
