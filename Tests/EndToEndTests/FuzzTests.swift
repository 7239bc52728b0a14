import CommonsClient
import Foundation
import Testing
import TopologyKit

/// Hostile input to every route of every service, sent straight to each service (past the
/// gateway's flood guard) as a signed-in person who owns real resources, so requests reach
/// the handlers rather than stopping at "not found".
extension EndToEndTests {
    @Test(
        "every field and query parameter of every route, with extreme numbers, huge, NUL, combining, prepend, RTL and emoji text: no 5xx, no process restarted"
    )
    func fuzzEveryRoute() async throws {
        let topology = try Topology.running()
        try topology.require(.accounts, .listings, .geoSearch, .donations, .shoppingLists)
        let world = try await FuzzWorld.make(topology)
        let before = await topology.processIDs()

        var requests: [FuzzRequest] = []
        for service in Topology.Service.allCases {
            let base = URL(string: "http://127.0.0.1:\(topology.port(service))")!
            for operation in try await FuzzWorld.operations(at: base) where !FuzzWorld.spared.contains("\(operation.method) \(operation.path)") {
                requests += world.requests(for: operation, at: base)
            }
        }
        let failures = await FuzzRequest.sendAll(requests, concurrency: 8)
        #expect(
            failures.isEmpty,
            "\(failures.count) of \(requests.count) requests got a 5xx or no answer:\n\(failures.prefix(40).joined(separator: "\n"))")
        let after = await topology.processIDs()
        #expect(after == before, "no process died or was restarted: \(before) → \(after)")
        for service in Topology.Service.allCases {
            #expect(
                await Topology.status(URL(string: "http://127.0.0.1:\(topology.port(service))/health/live")!) == 200,
                "\(service.rawValue) still answers")
        }
        print("end-to-end: fuzzed \(requests.count) requests over every route; \(failures.count) failures")
    }
}

/// One request of the fuzz run.
struct FuzzRequest: Sendable {
    var method: String
    var url: URL
    var token: String?
    var body: Data?
    var label: String

    /// Sends every request, `concurrency` at a time; returns a line for each that got a 5xx or no answer.
    static func sendAll(_ requests: [FuzzRequest], concurrency: Int) async -> [String] {
        let transport = URLSessionTransport(timeout: 60)
        return await withTaskGroup(of: String?.self) { group in
            var failures: [String] = []
            var pending = requests[...]
            for _ in 0..<concurrency {
                guard let next = pending.popFirst() else { break }
                group.addTask { await next.send(transport) }
            }
            while let result = await group.next() {
                if let result { failures.append(result) }
                if let next = pending.popFirst() { group.addTask { await next.send(transport) } }
            }
            return failures
        }
    }

    private func send(_ transport: URLSessionTransport) async -> String? {
        var headers = ["User-Agent": "fuzz", "Idempotency-Key": UUID().uuidString]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        do {
            // An edit that needs If-Match gets the resource's current ETag, so the body is what is judged.
            if method == "PATCH" || method == "PUT",
                let etag = try await transport.send(HTTPRequestData(method: "GET", url: url, headers: headers)).headers.first(where: {
                    $0.key.lowercased() == "etag"
                })?.value
            {
                headers["If-Match"] = etag
            }
            if body != nil { headers["Content-Type"] = "application/json" }
            let response = try await transport.send(HTTPRequestData(method: method, url: url, headers: headers, body: body))
            guard response.status >= 500 else { return nil }
            return "\(response.status) \(label): \(String(decoding: response.body.prefix(200), as: UTF8.self))"
        } catch {
            return "no answer \(label): \(error)"
        }
    }
}

/// What the fuzz run acts on: real resources of a signed-in person, and the hostile values.
struct FuzzWorld: Sendable {
    var owner: String
    var admin: String
    /// A real id for a path parameter, by the collection segment before it.
    var ids: [String: String]

    /// Routes not fuzzed: they end the acting person's account or session, after which every
    /// other request would stop at 401.
    static let spared: Set<String> = ["DELETE /v1/me", "DELETE /v1/sessions/current", "DELETE /v1/sessions/{id}"]

    static var hostileJSON: [(String, Any)] {
        [
            ("Int.min", Int64.min), ("Int.max", Int64.max), ("-0", -0.0), ("1e308", 1e308), ("-1", -1), ("empty", ""),
            ("100 KB", String(repeating: "a", count: 100_000)), ("NUL", "a\u{0}b"), ("combining", "e" + String(repeating: "\u{301}", count: 50)),
            ("prepend+quote", "\u{0D4E}\""), ("RTL", "\u{200F}abc\u{202E}def"), ("emoji", "👩‍👩‍👧‍👦🇳🇱"), ("null", NSNull()),
            ("array", [1, "two", [3]]), ("object", ["nested": ["deeper": Int64.max]]), ("true", true),
        ]
    }

    static let hostileText = [
        "-9223372036854775808", "9223372036854775807", "9223372036854775808", "-0", "1e308", "1e999", "NaN", "-Infinity", "",
        String(repeating: "a", count: 4_000), "a\u{0}b", "e" + String(repeating: "\u{301}", count: 50), "\u{0D4E}\"", "\u{200F}abc\u{202E}",
        "👩‍👩‍👧‍👦", "\"*OR NEAR(", "../../etc/passwd", "%00",
    ]

    /// Bodies that are not what any route takes: not JSON, too deep, a number past Double.
    static let rawBodies: [(String, Data)] = [
        ("1e999", Data("{\"quantity\": 1e999, \"amountMinor\": 1e999}".utf8)),
        ("deep", Data((String(repeating: "[", count: 20_000) + String(repeating: "]", count: 20_000)).utf8)),
        ("truncated", Data("{\"title\": \"ab".utf8)), ("bad UTF-8", Data([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xC3, 0x28, 0x22, 0x7D])),
        ("bare number", Data("9223372036854775808".utf8)),
    ]

    static let queryNames = [
        "q", "limit", "cursor", "lat", "lon", "radius", "unit", "category", "tag", "kind", "count", "free", "since", "until", "year",
        "storeId", "verified", "neLat", "neLon", "swLat", "swLon", "author", "sort", "size", "acceptsCategory", "status", "accountId",
    ]

    static func make(_ topology: Topology) async throws -> FuzzWorld {
        let (ada, adaTokens, _) = try await E2E.person(topology, "FuzzOwner")
        let (bob, bobTokens, _) = try await E2E.person(topology, "FuzzOther")
        let admin = try await E2E.admin(topology)
        let place = E2E.place()
        let photo = try await ada.listings.uploadImage(E2E.photo, contentType: "image/png")
        let listing = try await ada.listings.post(
            NewListing(
                title: "Fuzz lamp", category: "Household", condition: "good", pickupLocation: place,
                imageIds: [photo.id]))
        let bobs = try await bob.listings.post(NewListing(title: "Fuzz bike", category: "Sports", condition: "fair", pickupLocation: place))
        E2E.carryPosition(from: bob, to: ada)
        let request = try await ada.listings.request(bobs.id, message: "May I?")
        let list = try await ada.lists.create(name: "Fuzz list")
        let item = try await ada.lists.addItem(list.id, text: "Milk", quantity: 1)
        let slug = E2E.marker("fuzz-")
        let organization = try await admin.donations.registerOrganization(
            OrganizationFields(
                name: "Fuzz Fund", slug: slug, kind: "charity", mission: "Hardening.", categories: ["global-health"], currency: "USD",
                minimumDonationMinor: 100, suggestedAmountsMinor: [500]))
        _ = try await admin.donations.setVerified(organization.id, true)
        E2E.carryPosition(from: admin, to: ada)
        _ = try await ada.donations.topUp(amountMinor: 50_000, currency: "USD", cardNumber: "4242 4242 4242 4242")
        let donation = try await ada.donations.donate(NewDonation(organization: slug, amountMinor: 500, currency: "USD"))
        let recurring = try await ada.donations.startRecurring(organization: slug, amountMinor: 200, currency: "USD")
        let alert = try await ada.geo.createAlert(NewAlert(lat: place.lat, lon: place.lon, radius: 5))
        func key(_ id: UUID) -> String { id.uuidString.lowercased() }
        return FuzzWorld(
            owner: try #require(await ada.currentTokens()?.accessToken), admin: try #require(await admin.currentTokens()?.accessToken),
            ids: [
                "listings": key(listing.id), "images": key(photo.id), "conversations": request.conversationId.uuidString.lowercased(),
                "requests": key(request.id), "lists": key(list.id), "items": key(item.id), "organizations": slug,
                "donations": key(donation.donation.id), "recurring": key(recurring.id), "alerts": key(alert.id),
                "users": key(adaTokens.accountId), "members": key(bobTokens.accountId), "sessions": key(adaTokens.sessionId),
                "donation-posts": key(donation.donation.id),
            ])
    }

    /// The operations of the service at `base`, from its OpenAPI document.
    static func operations(at base: URL) async throws -> [(method: String, path: String, body: [String: Any]?)] {
        let data = try await URLSessionTransport().send(HTTPRequestData(method: "GET", url: base.appendingPathComponent("openapi.json"))).body
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        var operations: [(String, String, [String: Any]?)] = []
        for (path, methods) in paths where !path.hasPrefix("/health") && path != "/metrics" && path != "/openapi.json" {
            for (method, operation) in methods {
                let schema =
                    ((((operation as? [String: Any])?["requestBody"] as? [String: Any])?["content"] as? [String: Any])?["application/json"]
                    as? [String: Any])?["schema"] as? [String: Any]
                operations.append((method.uppercased(), path, schema))
            }
        }
        return operations.sorted { ($0.1, $0.0) < ($1.1, $1.0) }
    }

    /// Every hostile request for one operation: each query parameter name at once with each
    /// hostile text, each path parameter replaced by each, and for bodies each field of a
    /// valid-looking body replaced by each hostile JSON value, the body as a whole replaced,
    /// and bodies that are not JSON at all.
    func requests(for operation: (method: String, path: String, body: [String: Any]?), at base: URL) -> [FuzzRequest] {
        let token = operation.path.hasPrefix("/v1/organizations") && operation.method != "GET" ? admin : owner
        let path = concrete(operation.path)
        var requests: [FuzzRequest] = []
        func add(_ path: String, query: [URLQueryItem] = [], body: Data? = nil, _ label: String) {
            var components = URLComponents(url: base.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
            if !query.isEmpty { components.percentEncodedQuery = query.map { "\($0.name)=\(Self.escape($0.value ?? ""))" }.joined(separator: "&") }
            guard let url = components.url else { return }
            requests.append(
                FuzzRequest(
                    method: operation.method, url: url, token: token, body: body,
                    label: "\(operation.method) \(operation.path) \(label)"))
        }
        // A live stream given acceptable parameters stays open as long as its client listens.
        let streams = ["GET /v1/alerts/stream", "GET /v1/lists/events", "GET /v1/lists/{id}/events"].contains("\(operation.method) \(operation.path)")
        for value in Self.hostileText where !streams {
            add(path, query: Self.queryNames.map { URLQueryItem(name: $0, value: value) }, "query=\(value.prefix(24).debugDescription)")
        }
        if operation.path.contains("{") {
            for value in Self.hostileText where !value.isEmpty {
                add(concrete(operation.path, firstParameter: value), "path=\(value.prefix(24).debugDescription)")
            }
        }
        guard ["POST", "PUT", "PATCH"].contains(operation.method) else { return requests }
        let valid = Self.example(operation.body) as? [String: Any] ?? [:]
        let fields = Set(valid.keys).union(["quantity", "quantityDelta", "amountMinor", "title", "text", "lat", "lon", "radius", "rank", "price"])
        for field in fields.sorted() {
            for (name, value) in Self.hostileJSON {
                var body = valid
                body[field] = value
                add(path, body: try? JSONSerialization.data(withJSONObject: body), "\(field)=\(name)")
            }
        }
        for (name, value) in Self.hostileJSON {
            add(path, body: try? JSONSerialization.data(withJSONObject: value, options: .fragmentsAllowed), "body=\(name)")
        }
        for (name, data) in Self.rawBodies { add(path, body: data, "raw \(name)") }
        return requests
    }

    /// `path` with each `{parameter}` replaced by a real id of the resource it names (by the
    /// segment before it), or the first by `firstParameter`.
    private func concrete(_ path: String, firstParameter: String? = nil) -> String {
        var segments = path.split(separator: "/").map(String.init)
        var replaced = false
        for index in segments.indices where segments[index].hasPrefix("{") {
            if let firstParameter, !replaced {
                segments[index] = Self.escape(firstParameter)
                replaced = true
            } else {
                let collection = index > 0 ? segments[index - 1] : ""
                segments[index] = ids[collection] ?? UUID().uuidString.lowercased()
            }
        }
        return "/" + segments.joined(separator: "/")
    }

    private static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }

    /// A value that fits `schema`: what a well-behaved client might send.
    static func example(_ schema: [String: Any]?) -> Any {
        // A nullable field has the type list [type, "null"].
        switch (schema?["type"] as? String) ?? (schema?["type"] as? [String])?.first(where: { $0 != "null" }) {
        case "object":
            let properties = schema?["properties"] as? [String: [String: Any]] ?? [:]
            return properties.mapValues { example($0) }
        case "array": return [example(schema?["items"] as? [String: Any])]
        case "integer": return 1
        case "number": return 1.5
        case "boolean": return true
        case "string": return (schema?["format"] as? String) == "uuid" ? UUID().uuidString.lowercased() : "fuzz"
        default: return [String: Any]()
        }
    }
}
