import AsyncHTTPClient
import CommonsAPI
import Foundation
import NIOCore
import ServiceKit

/// What people do with Commons, mixed, through one gateway: browse near me, post a listing,
/// ask for someone else's listing, donate, and edit a shopping list. Each simulated person
/// is signed in, carries the newest `Commons-Position` it has seen into its next request (as
/// the SDK does, so a replica that lags waits before answering), and sends an
/// `Idempotency-Key` with every post, request and donation.
struct MixedWorkload: Sendable {
    /// One kind of request, with its share of the mix (in percent).
    enum Operation: String, CaseIterable, Sendable {
        case browse = "browse near me"
        case post = "post a listing"
        case request = "ask for a listing"
        case donate = "donate"
        case editList = "edit a list"

        var share: Int {
            switch self {
            case .browse: 40
            case .post, .request, .donate, .editList: 15
            }
        }

        /// The operation a number in 0..<100 picks.
        static func picked(by number: Int) -> Operation {
            var bound = 0
            for operation in allCases {
                bound += operation.share
                if number < bound { return operation }
            }
            return .browse
        }
    }

    /// A signed-in person with a wallet and a list.
    struct Person: Sendable {
        var index: Int
        var token: String
        var listId: String
        var itemId: String
    }

    /// Requests begun during the measured time, by operation: latencies and failures.
    struct Outcome: Sendable {
        var latencies: [Operation: [Duration]] = [:]
        var failures: [Operation: [Int: Int]] = [:]
        var elapsed: Duration = .zero

        var requests: Int { latencies.values.reduce(0) { $0 + $1.count } }
        var failed: Int { failures.values.flatMap(\.values).reduce(0, +) }
        var perSecond: Double { Double(requests) / (elapsed / .seconds(1)) }

        /// The `quantile` (0…1) of the latencies of `operation`, or of all when nil, in milliseconds.
        func milliseconds(_ quantile: Double, of operation: Operation? = nil) -> Double {
            let all = (operation.map { latencies[$0] ?? [] } ?? latencies.values.flatMap { $0 }).sorted()
            guard !all.isEmpty else { return 0 }
            let index = min(all.count - 1, Int((Double(all.count) * quantile).rounded(.up)) - 1)
            return all[max(0, index)] / .milliseconds(1)
        }

        mutating func merge(_ other: Outcome) {
            latencies.merge(other.latencies) { $0 + $1 }
            failures.merge(other.failures) { $0.merging($1, uniquingKeysWith: +) }
        }
    }

    let api: SeedClient
    let people: [Person]
    let organization: String
    /// Where people browse and post: central Amsterdam.
    static let centre = (lat: 52.3676, lon: 4.9041)

    // MARK: Setting up

    /// Signs in as the admin, registers `count` people, makes one verified organisation, gives each
    /// person a topped-up wallet, a list with an item, and one listing for others to ask for.
    static func prepare(api: SeedClient, people count: Int, admin: (email: String, password: String)) async throws -> (MixedWorkload, ListingPool) {
        let password = "bench-password-\(UUID().uuidString.prefix(8))"
        let signedIn = try await api.post("/v1/sessions", SignIn(email: admin.email, password: admin.password))
        try expect(201, signedIn, "signing in as the admin")
        let admin = try signedIn.decode(Tokens.self).accessToken
        guard let file = SeedData.organizationsFile(), let first = try SeedData.decode(file).organizations.first else {
            throw CommandFailure("bench: Data/organizations.json not found (set COMMONS_ORGANIZATIONS_FILE)")
        }
        try expect(201, try await api.post("/v1/organizations", first.body, token: admin), "registering an organisation")
        try expect(
            200, try await api.put("/v1/organizations/\(first.slug)/verification", ["verified": true], token: admin),
            "verifying the organisation")

        let pool = ListingPool(people: count)
        let people = try await withThrowingTaskGroup(of: Person.self) { group in
            for index in 0..<count {
                group.addTask {
                    let email = "bench-\(index)-\(UUID().uuidString.prefix(8).lowercased())@bench.commons.test"
                    let me = try await register(api, email: email, password: password)
                    try expect(
                        201,
                        try await api.post(
                            "/v1/wallet/top-ups", NewTopUp(amountMinor: 1_000_000, currency: .usd, cardNumber: "4242 4242 4242 4242"),
                            token: me, idempotencyKey: UUID().uuidString), "topping up a wallet")
                    let list = try await api.post("/v1/lists", ["name": "Groceries"], token: me)
                    try expect(201, list, "making a list")
                    let listId = try list.id()
                    let item = try await api.post("/v1/lists/\(listId)/items", NewListItem(text: "Oat milk", quantity: 1), token: me)
                    try expect(201, item, "adding an item")
                    let person = Person(index: index, token: me, listId: listId, itemId: try item.id())
                    let posted = try await api.post("/v1/listings", listing(index), token: me, idempotencyKey: UUID().uuidString)
                    try expect(201, posted, "posting a listing")
                    await pool.add(try posted.id(), by: index, position: posted.position)
                    return person
                }
            }
            return try await group.reduce(into: [Person]()) { $0.append($1) }.sorted { $0.index < $1.index }
        }
        return (MixedWorkload(api: api, people: people, organization: first.slug), pool)
    }

    /// Registers `email`; returns its access token.
    private static func register(_ api: SeedClient, email: String, password: String) async throws -> String {
        let answer = try await api.post("/v1/accounts", Registration(email: email, password: password, displayName: "Bench"))
        try expect(201, answer, "registering \(email)")
        return try answer.decode(Tokens.self).accessToken
    }

    private static func expect(_ status: Int, _ answer: SeedClient.Answer, _ what: String) throws {
        guard answer.status == status else { throw CommandFailure("bench: \(what) answered \(answer.status): \(answer.detail)") }
    }

    /// A listing near the centre, a few hundred metres apart from the others.
    static func listing(_ number: Int) -> NewListing {
        let angle = Double(number) * 2.399963
        let distance = 0.002 * Double(number % 40)
        return NewListing(
            title: "Bench chair \(number)", description: "Sturdy, a few scratches.", category: "Furniture", condition: "good",
            pickupTimes: PickupTimes(note: "Evenings"),
            pickupLocation: Coordinate(lat: centre.lat + distance * cos(angle), lon: centre.lon + distance * sin(angle)))
    }

    // MARK: Running

    /// Every person runs requests one after another, each picked at random by its share of
    /// the mix, for `duration` after a warm-up of a second.
    func run(for duration: Duration, pool: ListingPool) async throws -> Outcome {
        let clock = ContinuousClock()
        let warmedUp = clock.now + .seconds(1)
        let end = warmedUp + duration
        let outcomes = try await withThrowingTaskGroup(of: (Outcome, ContinuousClock.Instant, ContinuousClock.Instant).self) { group in
            for person in people {
                group.addTask {
                    var outcome = Outcome()
                    var position: String?
                    var posted = 0
                    var started: ContinuousClock.Instant?
                    while clock.now < end {
                        let operation = Operation.picked(by: Int.random(in: 0..<100))
                        let begun = clock.now
                        let status = try await perform(operation, as: person, position: &position, posted: &posted, pool: pool)
                        guard begun >= warmedUp else { continue }
                        started = started ?? begun
                        outcome.latencies[operation, default: []].append(clock.now - begun)
                        if !(200..<300).contains(status) { outcome.failures[operation, default: [:]][status, default: 0] += 1 }
                    }
                    return (outcome, started ?? end, clock.now)
                }
            }
            return try await group.reduce(into: [(Outcome, ContinuousClock.Instant, ContinuousClock.Instant)]()) { $0.append($1) }
        }
        var total = Outcome()
        for (outcome, _, _) in outcomes { total.merge(outcome) }
        total.elapsed = outcomes.map(\.2).max()! - outcomes.map(\.1).min()!
        return total
    }

    /// Sends one request of `operation`; returns its status.
    private func perform(
        _ operation: Operation, as person: Person, position: inout String?, posted: inout Int,
        pool: ListingPool
    ) async throws -> Int {
        let seen = position.map { ["Commons-Min-Position": $0] } ?? [:]
        let answer: SeedClient.Answer
        switch operation {
        case .browse:
            let lat = Self.centre.lat + Double.random(in: -0.03...0.03)
            let lon = Self.centre.lon + Double.random(in: -0.05...0.05)
            answer = try await api.get("/v1/nearby/listings?lat=\(lat)&lon=\(lon)&radius=5&limit=20", token: person.token, headers: seen)
        case .post:
            posted += 1
            answer = try await api.post(
                "/v1/listings", Self.listing(person.index * 100_000 + posted), token: person.token,
                idempotencyKey: UUID().uuidString, headers: seen)
            if answer.status == 201, let id = try? answer.id() {
                await pool.add(id, by: person.index, position: answer.position)
            }
        case .request:
            // Someone else's listing this person has not asked for, seen as its poster saw it.
            guard let wanted = await pool.take(for: person.index) else {
                return try await perform(.browse, as: person, position: &position, posted: &posted, pool: pool)
            }
            let after = [wanted.position, position].compactMap { $0 }.max { (Int64($0) ?? 0) < (Int64($1) ?? 0) }
            answer = try await api.post(
                "/v1/listings/\(wanted.id)/requests", ["message": "Could I pick it up tomorrow?"], token: person.token,
                idempotencyKey: UUID().uuidString, headers: after.map { ["Commons-Min-Position": $0] } ?? [:])
        case .donate:
            answer = try await api.post(
                "/v1/donations", NewDonation(organization: organization, amountMinor: 100, currency: .usd), token: person.token,
                idempotencyKey: UUID().uuidString, headers: seen)
        case .editList:
            answer = try await api.patch(
                "/v1/lists/\(person.listId)/items/\(person.itemId)", ["quantityDelta": 1], token: person.token, headers: seen)
        }
        if let newer = answer.position, (Int64(newer) ?? 0) > (position.flatMap { Int64($0) } ?? 0) { position = newer }
        return answer.status
    }
}

/// Listings posted so far, queued for each person who has not asked for them yet (never
/// their own poster).
actor ListingPool {
    struct Entry: Sendable {
        var id: String
        var position: String?
    }

    private var waiting: [[Entry]]
    private var next: [Int]

    init(people: Int) {
        waiting = Array(repeating: [], count: people)
        next = Array(repeating: 0, count: people)
    }

    func add(_ id: String, by author: Int, position: String?) {
        for person in waiting.indices where person != author { waiting[person].append(Entry(id: id, position: position)) }
    }

    func take(for person: Int) -> Entry? {
        guard next[person] < waiting[person].count else { return nil }
        defer { next[person] += 1 }
        return waiting[person][next[person]]
    }
}
