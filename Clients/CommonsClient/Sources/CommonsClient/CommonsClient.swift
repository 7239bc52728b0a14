import Backoff
// The wire shapes are the SDK's own types: an app that imports CommonsClient sees them.
@_exported import CommonsAPI
import Foundation

/// The Commons API for apps: one client for all five services behind the gateway.
///
/// ```swift
/// let client = CommonsClient(baseURL: URL(string: "https://api.commons.example")!, tokenStore: KeychainTokenStore())
/// try await client.accounts.signIn(email: "ada@example.com", password: "…")
/// let posted = try await client.listings.post(NewListing(title: "Chair", category: "Furniture", …))
/// let nearby = try await client.geo.nearbyListings(lat: 52.52, lon: 13.40, radius: 2)
/// ```
///
/// What it does for every call:
/// - attaches `Authorization: Bearer` when signed in; on a 401 it refreshes the session once
///   (the refresh token rotates; concurrent calls share one refresh) and sends the call again;
/// - gives each create or money call an `Idempotency-Key`, and sends the same key again when
///   it retries that call after a network failure or a 502/503/504 (``RetryPolicy``);
/// - remembers the highest `Commons-Position` of any write and sends it as
///   `Commons-Min-Position`, so a read on any service sees this client's earlier writes;
/// - turns problem documents into ``CommonsProblem`` and network failures into
///   ``CommonsTransportError``;
/// - belongs to the task that makes it: cancelling that task cancels the request on its
///   way, ends any wait before a retry, sends nothing more and throws `CancellationError`.
public actor CommonsClient {
    /// The gateway's address; paths like `/v1/listings` are resolved against it.
    public nonisolated let baseURL: URL
    /// The highest write position seen, sent as `Commons-Min-Position`.
    public nonisolated let positions: PositionTracker
    let transport: any HTTPTransport
    let tokenStore: any TokenStore
    let retry: RetryPolicy
    /// The waits between reconnections of a live stream.
    let reconnection: Backoff
    /// The most events a live stream holds for a reader that has not read them.
    let liveStreamBuffer: Int
    let userAgent: String
    let makeIdempotencyKey: @Sendable () -> String

    private var tokens: Tokens?
    private var tokensLoaded = false
    private var refreshing: Task<Tokens?, any Error>?
    /// The token store's latest call; the next one waits for it (see ``inStoreOrder(_:)``).
    private var lastStoreCall: Task<Void, Never>?

    /// - Parameters:
    ///   - baseURL: the gateway, e.g. `https://api.commons.example` or `http://127.0.0.1:8080`.
    ///   - tokenStore: where tokens are kept between launches (default: memory only).
    ///   - transport: how requests are sent (default: `URLSession`).
    ///   - retry: when calls are sent again (default: 4 sends, 200 ms doubling, at most 2 s).
    ///   - userAgent: names the device; `accounts` names sessions after it.
    ///   - idempotencyKeys: makes a new key per logical call (default: a random UUID).
    ///   - reconnection: the waits before a live stream reconnects (default: 1 s doubling, at
    ///     most 30 s, never shorter than the server's `retry`; from 1 s again once connected).
    ///   - liveStreamBuffer: the most events a live stream holds unread for its reader
    ///     (default 256); one that falls further behind gets ``LiveStreamGap``.
    public init(
        baseURL: URL, tokenStore: any TokenStore = InMemoryTokenStore(), transport: any HTTPTransport = URLSessionTransport(),
        retry: RetryPolicy = .default, userAgent: String = "CommonsClient", positions: PositionTracker = PositionTracker(),
        idempotencyKeys: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() },
        reconnection: Backoff = Backoff(initial: .seconds(1), maximum: .seconds(30)), liveStreamBuffer: Int = 256
    ) {
        self.baseURL = baseURL
        self.tokenStore = tokenStore
        self.transport = transport
        self.retry = retry
        self.reconnection = reconnection
        self.liveStreamBuffer = liveStreamBuffer
        self.userAgent = userAgent
        self.positions = positions
        makeIdempotencyKey = idempotencyKeys
    }

    // MARK: Services

    /// Registration, sessions, the own profile and public profiles (`accounts`).
    public nonisolated var accounts: AccountsEndpoints { AccountsEndpoints(client: self) }
    /// Listings, images, requests, comments, conversations and moderation (`listings`).
    public nonisolated var listings: ListingsEndpoints { ListingsEndpoints(client: self) }
    /// Nearby and map-area searches and saved-search alerts (`geo-search`).
    public nonisolated var geo: GeoEndpoints { GeoEndpoints(client: self) }
    /// Organisations, wallet, donations, sharing and impact (`donations`).
    public nonisolated var donations: DonationsEndpoints { DonationsEndpoints(client: self) }
    /// The product catalogue, shopping lists, reviews and favourites (`shopping-lists`).
    public nonisolated var lists: ShoppingListsEndpoints { ShoppingListsEndpoints(client: self) }

    // MARK: Session

    /// The tokens of the signed-in session, if any (loaded from the token store on first use).
    public func currentTokens() async -> Tokens? {
        if !tokensLoaded {
            let loaded = await inStoreOrder { await $0.load() }
            // A sign-in or sign-out that ended while the store was read is newer: it wins.
            if !tokensLoaded {
                tokens = loaded
                tokensLoaded = true
            }
        }
        return tokens
    }

    /// The signed-in account, if any.
    public func accountId() async -> UUID? { await currentTokens()?.accountId }

    /// Adopts new tokens (after sign-in, registration or refresh) and saves them, or, given
    /// nil, forgets the session and clears the store.
    func adopt(_ new: Tokens?) async {
        tokens = new
        tokensLoaded = true
        if let new {
            await inStoreOrder { await $0.save(new) }
        } else {
            await inStoreOrder { await $0.clear() }
        }
    }

    /// Runs `work` on the token store once every store call made before it has ended. The
    /// actor takes other calls while it waits for the store, so without this a slow save
    /// could land after the clear that followed it and bring a session back. The call is a
    /// task of its own so that cancelling the caller does not lose a rotated refresh token.
    private func inStoreOrder<Value: Sendable>(_ work: @escaping @Sendable (any TokenStore) async -> Value) async -> Value {
        let previous = lastStoreCall
        let store = tokenStore
        let call = Task {
            await previous?.value
            return await work(store)
        }
        lastStoreCall = Task { _ = await call.value }
        return await call.value
    }

    /// Refreshes the session after `used` was refused; true when there is a newer access
    /// token to try. Concurrent callers share one refresh, since a refresh token works once.
    func refresh(after used: String) async throws -> Bool {
        if let current = tokens, current.accessToken != used { return true }
        if let refreshing { return try await refreshing.value != nil }
        guard let refreshToken = tokens?.refreshToken else { return false }
        let task = Task<Tokens?, any Error> {
            do {
                let response = try await self.send(Endpoint(.post, "/v1/sessions/refresh", json: ["refreshToken": refreshToken], auth: .none))
                return try self.decode(Tokens.self, from: response, path: "/v1/sessions/refresh")
            } catch let problem as CommonsProblem where problem.status == 401 || problem.status == 400 {
                return nil
            }
        }
        refreshing = task
        defer { refreshing = nil }
        let new = try await task.value
        await adopt(new)
        return new != nil
    }

    // MARK: Sending

    /// Sends `endpoint` with everything the conventions ask for; answers the response of a
    /// 2xx/3xx, throws ``CommonsProblem`` for a 4xx/5xx and ``CommonsTransportError`` when
    /// nothing answered.
    func send(_ endpoint: Endpoint) async throws -> HTTPResponseData {
        let key = endpoint.idempotent ? makeIdempotencyKey() : nil
        let repeatable = ["GET", "HEAD", "PUT", "DELETE"].contains(endpoint.method.rawValue) || key != nil
        var refreshed = false
        var attempt = 0
        while true {
            // A cancelled call sends nothing more: no retry, no call after a refresh.
            try Task.checkCancellation()
            attempt += 1
            var accessToken: String?
            if endpoint.auth != .none {
                accessToken = await currentTokens()?.accessToken
                if endpoint.auth == .required, accessToken == nil { throw CommonsTransportError.notSignedIn }
            }
            let request = try makeRequest(endpoint, accessToken: accessToken, idempotencyKey: key)
            let response: HTTPResponseData
            do {
                response = try await transport.send(request)
            } catch {
                // What a transport throws once its task is cancelled is the cancellation, not an outage.
                if error is CancellationError || Task.isCancelled { throw CancellationError() }
                if repeatable, attempt < retry.attempts {
                    try await Task.sleep(for: retry.jitteredDelay(after: attempt, retryAfter: nil))
                    continue
                }
                throw CommonsTransportError.unreachable(String(describing: error))
            }
            if let position = response.header("Commons-Position") { positions.observe(position) }
            if response.status == 401, let accessToken, !refreshed, endpoint.path != "/v1/sessions/refresh" {
                refreshed = true
                if try await refresh(after: accessToken) { continue }
            }
            // 409 "idempotency-in-progress": the first try with this key is still running (or
            // ran on a server that died, until its lease ends); the same key is retried.
            let stillRunning =
                response.status == 409 && key != nil
                && (try? JSONDecoder().decode(ProblemKind.self, from: response.body))?.type.hasSuffix("/idempotency-in-progress") == true
            if [502, 503, 504].contains(response.status) || stillRunning, repeatable, attempt < retry.attempts {
                let retryAfter = response.header("Retry-After").flatMap { Int($0) }
                try await Task.sleep(for: retry.jitteredDelay(after: attempt, retryAfter: retryAfter))
                continue
            }
            guard response.status < 400 else {
                throw CommonsProblem.decode(status: response.status, body: response.body, retryAfter: response.header("Retry-After"))
            }
            return response
        }
    }

    func makeRequest(_ endpoint: Endpoint, accessToken: String?, idempotencyKey: String?) throws -> HTTPRequestData {
        // Built from text, which fails on a bad path instead of trapping; a path may carry its own query.
        let base = baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        guard var components = URLComponents(string: base + endpoint.path) else {
            throw CommonsTransportError.unreachable("not a valid path: \(endpoint.path)")
        }
        let items = (components.queryItems ?? []) + endpoint.query.filter { $0.value != nil }
        components.queryItems = items.isEmpty ? nil : items
        // `+` is a space in a query string: encode it so a value means what it says.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        guard let url = components.url else { throw CommonsTransportError.unreachable("not a valid path: \(endpoint.path)") }
        var headers = ["Accept": "application/json", "User-Agent": userAgent]
        if let accessToken { headers["Authorization"] = "Bearer \(accessToken)" }
        if let idempotencyKey { headers["Idempotency-Key"] = idempotencyKey }
        if let minimum = positions.current { headers["Commons-Min-Position"] = minimum }
        if let ifMatch = endpoint.ifMatch { headers["If-Match"] = ifMatch.value }
        if endpoint.body != nil { headers["Content-Type"] = endpoint.contentType }
        for (name, value) in endpoint.headers { headers[name] = value }
        return HTTPRequestData(method: endpoint.method.rawValue, url: url, headers: headers, body: endpoint.body)
    }

    // MARK: Decoding

    nonisolated func decode<T: Decodable>(_ type: T.Type, from response: HTTPResponseData, path: String) throws -> T {
        do {
            return try CommonsJSON.decoder.decode(T.self, from: response.body)
        } catch {
            throw CommonsTransportError.undecodable(path: path, reason: String(describing: error))
        }
    }

    /// Sends and decodes the JSON answer.
    func call<T: Decodable>(_ endpoint: Endpoint, as type: T.Type = T.self) async throws -> T {
        try decode(T.self, from: try await send(endpoint), path: endpoint.path)
    }

    /// Sends and decodes the JSON answer with its `ETag`.
    func tagged<T: Decodable & Sendable>(_ endpoint: Endpoint, as type: T.Type = T.self) async throws -> Tagged<T> {
        let response = try await send(endpoint)
        return Tagged(value: try decode(T.self, from: response, path: endpoint.path), etag: response.header("ETag").map(ETag.init))
    }

    /// The raw JSON of any `GET` path (for what the typed calls do not cover yet), with the
    /// session, positions and retries of every call.
    public func get(_ path: String, query: [URLQueryItem] = []) async throws -> Data {
        try await send(Endpoint(.get, path, query: query, auth: .optional)).body
    }

    /// Sends a call whose answer has no body that matters (204 and the like).
    func perform(_ endpoint: Endpoint) async throws {
        _ = try await send(endpoint)
    }
}

/// Just the `type` of a problem document.
private struct ProblemKind: Decodable {
    var type: String
}
