import CommonsAPI
import Contracts
import EventLog
import Foundation
import GeoSearchDomain
import Hummingbird
import ReadModel
import ServiceKit
import Tracing

/// The routes of saved searches (`/v1/alerts`), all for the signed-in owner only; someone
/// else's alert answers 404, as if it did not exist.
///
/// Reading `GET /v1/alerts/matches` moves the owner's read marker past what it returned
/// (an `AlertMatchesRead` event), so the next call lists only what is newer. The live
/// stream does not move it: a client that also wants the list to stay short calls the
/// list after it has shown what the stream delivered.
struct AlertsAPI: Sendable {
    let runtime: ServiceRuntime
    let matcher: AlertMatcher
    let commands: AlertCommands
    let clock: WallClock

    /// Alerts per account: enough for home, work and a few searches, not a scraper's grid.
    static let maximumAlertsPerAccount = 20
    /// How often an idle stream sends a keep-alive comment, for proxies that drop quiet connections.
    static let keepAliveInterval = Duration.seconds(15)

    init(runtime: ServiceRuntime, clock: WallClock) {
        self.runtime = runtime
        self.clock = clock
        matcher = AlertMatcher(readModel: runtime.readModel, sealer: PersonalDataSealer(vault: runtime.keyVault))
        commands = AlertCommands(store: runtime.store)
    }

    func addRoutes(to router: Router<AppRequestContext>) {
        router.post("/v1/alerts") { request, context in try await create(request, context: context) }
        router.get("/v1/alerts") { _, context in
            let owner = try context.requireIdentity().accountId
            var views: [Alert] = []
            for alert in try await matcher.alerts(of: owner) {
                if let criteria = try await matcher.criteria(of: alert) { views.append(Alert(alert, criteria)) }
            }
            return try Response.json(["items": views])
        }
        router.get("/v1/alerts/matches") { request, context in try await readMatches(request, context: context) }
        router.get("/v1/alerts/stream") { request, context in try await stream(request, context: context) }
        router.get("/v1/alerts/{id}") { _, context in
            let (alert, criteria) = try await ownAlert(context)
            return try Response.json(Alert(alert, criteria), version: 1)
        }
        router.delete("/v1/alerts/{id}") { _, context in
            let (alert, _) = try await ownAlert(context)
            let owner = try context.requireIdentity().accountId
            guard let result = try await commands.delete(alert.id, owner: owner, metadata: context.eventMetadata) else {
                throw Problem.notFound() // deleted meanwhile by another request
            }
            _ = await runtime.waitUntilApplied(result.checkpoint)
            return Response.empty(position: result.checkpoint)
        }
    }

    /// `POST /v1/alerts`: saves a search; 201 with the alert and its `Location`.
    private func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        let owner = try context.requireIdentity().accountId
        let body = try await request.decodeJSON(as: AlertRequest.self, context: context)
        var problems: [String: [String]] = [:]
        var parsed: AlertCriteria?
        do { parsed = try AlertCriteria.parse(body.fields) } catch {
            switch error {
            case .invalid(let errors): problems = errors
            }
        }
        if problems["q"] == nil { do throws(FullTextQuery.Invalid) { _ = try FullTextQuery.parse(body.q) } catch { problems["q"] = [error.message] } }
        guard problems.isEmpty, let criteria = parsed else { throw Problem.validation(problems, detail: "The alert has invalid or missing fields.") }
        guard try await matcher.alerts(of: owner).count < Self.maximumAlertsPerAccount else {
            throw Problem.conflict(
                "You have \(Self.maximumAlertsPerAccount) alerts, the most an account may have; delete one first.",
                type: "too-many-alerts")
        }
        let alertId = UUID.random()
        let now = clock.now()
        let (created, result) = try await commands.create(
            alertId, owner: owner, criteria: try await matcher.sealer.seal(criteria, for: owner), at: now,
            metadata: context.eventMetadata)
        // So that the owner's next call, on this replica, already sees the alert.
        _ = await runtime.waitUntilApplied(result.checkpoint)
        let stored = StoredAlert(id: alertId, sealed: created.criteria, created: result.checkpoint, createdAt: now)
        return try Response.json(
            Alert(stored, criteria), status: .created, version: 1, position: result.checkpoint,
            location: "/v1/alerts/\(alertId.lowercasedText)")
    }

    /// `GET /v1/alerts/matches?limit=`: new matches since the last read, oldest first, and moves the read marker past them.
    private func readMatches(_ request: Request, context: AppRequestContext) async throws -> Response {
        let owner = try context.requireIdentity().accountId
        var limit = 50
        if let text = request.query("limit") {
            guard let value = Int(text), (1...100).contains(value) else {
                throw Problem.malformed("The query has invalid fields.", errors: ["limit": ["must be a whole number from 1 to 100"]])
            }
            limit = value
        }
        let found = try await matcher.matches(of: owner, after: nil, limit: limit + 1)
        let items = Array(found.prefix(limit))
        guard let last = items.last else { return try Response.json(MatchesPage(items: [], readUpTo: nil, hasMore: false)) }
        let result = try await commands.markRead(owner: owner, upTo: last.id, metadata: context.eventMetadata)
        _ = await runtime.waitUntilApplied(result.checkpoint)
        return try Response.json(MatchesPage(items: items, readUpTo: last.id, hasMore: found.count > limit), position: result.checkpoint)
    }

    /// `GET /v1/alerts/stream`: matches as server-sent events (`event: match`, the match's id
    /// as the event id), from `Last-Event-ID` when a client resumes, else from the read marker.
    private func stream(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let owner = identity.accountId
        let resumeFrom = try request.lastEventID.map { text in
            guard let checkpoint = Checkpoint(text) else {
                throw Problem.malformed("Last-Event-ID is not an id this stream sent.", errors: ["Last-Event-ID": ["is not a match id"]])
            }
            return checkpoint
        }
        let matcher = matcher
        let runtime = runtime
        return try await runtime.sessionEvents(for: identity, connection: context.connection) { sink in
            var after: Checkpoint
            if let resumeFrom { after = resumeFrom } else { after = try await matcher.readMarker(of: owner) ?? .start }
            var applied = Self.applied(runtime)
            var quietSince = ContinuousClock.now
            while sink.isOpen {
                // Whatever was posted up to here is in the index this pass reads (and every
                // alert made up to here with it): what the pass finds no match in needs no
                // second look, so the next pass reads only what was posted since, not all
                // that was posted since the last match each time anything moves.
                let indexed = applied.min() ?? .start
                let batch = try await matcher.matches(of: owner, after: after, limit: 100)
                for match in batch {
                    try await Self.traced(match, in: runtime.store) {
                        try await sink.send(try .json(match, id: match.id, name: "match"))
                    }
                    after = Checkpoint(match.id) ?? after
                }
                if batch.count == 100 { continue }
                after = max(after, indexed)
                if !batch.isEmpty { quietSince = .now }
                // Wait for the read model to move (in memory, cheap) before asking SQLite again.
                while Self.applied(runtime) == applied, sink.isOpen {
                    try await Task.sleep(for: .milliseconds(200))
                    if ContinuousClock.now - quietSince >= Self.keepAliveInterval {
                        try await sink.keepAlive()
                        quietSince = .now
                    }
                }
                applied = Self.applied(runtime)
            }
        }
    }

    /// Runs `send` in an "alert matched" span of the trace that posted the listing, the last
    /// step of that trace, when tracing is on and the post was traced.
    private static func traced(_ match: AlertMatchResult, in store: any EventStore, _ send: () async throws -> Void) async throws {
        guard EventTrace.isOn,
            let posted = try? await store.read(stream: "listing-\(match.listing.id.lowercasedText)", from: 1, direction: .forwards, limit: 1).first,
            let trace = EventTrace.context(of: posted.metadata)
        else { return try await send() }
        try await withSpan("alert matched", context: trace, ofKind: .producer) { span in
            span.attributes["commons.listing.id"] = match.listing.id.lowercasedText
            span.attributes["commons.alert.ids"] = match.alertIds.map { $0.lowercasedText }.joined(separator: ",")
            span.attributes["commons.match.id"] = match.id
            try await send()
        }
    }

    /// How far each projection has got: it changes whenever the read model does.
    private static func applied(_ runtime: ServiceRuntime) -> [Checkpoint] {
        runtime.runners.map(\.status.checkpoint)
    }

    /// The caller's alert named in the path, opened; 404 for anyone else's, a deleted one, or one whose key is gone.
    private func ownAlert(_ context: AppRequestContext) async throws -> (StoredAlert, AlertCriteria) {
        let owner = try context.requireIdentity().accountId
        let id = try context.parameters.uuid("id")
        guard let alert = try await matcher.alerts(of: owner).first(where: { $0.id == id }),
            let criteria = try await matcher.criteria(of: alert)
        else { throw Problem.notFound() }
        return (alert, criteria)
    }
}

/// The body of `POST /v1/alerts`; numbers may also come as text.
struct AlertRequest: Decodable, Sendable {
    var lat: Double?
    var lon: Double?
    var radius: Double?
    var unit: String?
    var category: String?
    var q: String?
    var name: String?

    /// The fields as the text `AlertCriteria.parse` reads.
    var fields: [String: String] {
        var fields: [String: String] = [:]
        fields["lat"] = lat.map { "\($0)" }
        fields["lon"] = lon.map { "\($0)" }
        fields["radius"] = radius.map { "\($0)" }
        fields["unit"] = unit
        fields["category"] = category
        fields["q"] = q
        fields["name"] = name
        return fields
    }
}

extension Alert {
    /// An alert as its owner sees it: its criteria opened, `radius` in its `unit`.
    init(_ alert: StoredAlert, _ criteria: AlertCriteria) {
        self.init(
            id: alert.id, name: criteria.name, lat: criteria.lat, lon: criteria.lon, radius: criteria.radiusMeters / criteria.unit.meters,
            unit: criteria.unit.rawValue, category: criteria.category.map(ListingCategory.init), q: criteria.keywords?.words.joined(separator: " "),
            createdAt: alert.createdAt)
    }
}

/// A page of matches: `readUpTo` is the new read marker (null when nothing was new).
struct MatchesPage: Encodable, Sendable {
    var items: [AlertMatchResult]
    var readUpTo: String?
    var hasMore: Bool

    enum CodingKeys: String, CodingKey { case items, readUpTo, hasMore }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(readUpTo, forKey: .readUpTo)
        try container.encode(hasMore, forKey: .hasMore)
    }
}
