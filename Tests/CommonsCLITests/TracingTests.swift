import AsyncHTTPClient
import EventLogTestSupport
import Foundation
import Hummingbird
import NIOCore
import Testing

/// Tracing across processes: `commons up` with an OTLP endpoint, and a collector in the test
/// that receives what the gateway and the services export (OTLP/HTTP with JSON bodies).
@Suite("traces across the gateway, the services and the log")
struct TracingTests {
    @Test("a listing posted through the gateway is one trace: gateway, listings, its append to the log, geo-search applying it, an alert matching it")
    func postedListingIsOneTrace() async throws {
        let collector = try await SpanCollector.start()
        let stack = try UpProcess.start(
            seed: false, log: nil,
            environment: [
                "COMMONS_BCRYPT_COST": "4",
                "OTEL_EXPORTER_OTLP_ENDPOINT": collector.url,
                "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json",
                "OTEL_BSP_SCHEDULE_DELAY": "100",
            ])
        try await stack.run { stack in
            let registered = try await http(
                .POST, stack.gateway + "/v1/accounts",
                json: [
                    "email": "tracer-\(UUID().uuidString.prefix(8).lowercased())@example.com",
                    "password": "a-long-enough-secret", "displayName": "Tracer",
                ])
            #expect(registered.status == 201, "\(registered)")
            let token = try #require(registered.json()["accessToken"] as? String)
            // A neighbour with an alert for the place, watching its live stream.
            let watcher = try await http(
                .POST, stack.gateway + "/v1/accounts",
                json: [
                    "email": "watcher-\(UUID().uuidString.prefix(8).lowercased())@example.com",
                    "password": "a-long-enough-secret", "displayName": "Watcher",
                ])
            let watcherToken = try #require(watcher.json()["accessToken"] as? String)
            var alert = HTTPClientRequest(url: stack.gateway + "/v1/alerts")
            alert.method = .POST
            alert.headers.add(name: "Authorization", value: "Bearer \(watcherToken)")
            alert.headers.add(name: "Content-Type", value: "application/json")
            alert.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: ["lat": 52.37, "lon": 4.89, "radius": 2])))
            #expect(try await HTTPClient.shared.execute(alert, timeout: .seconds(30)).status == .created)
            let streamURL = stack.gateway + "/v1/alerts/stream"
            let watching = Task {
                var request = HTTPClientRequest(url: streamURL)
                request.headers.add(name: "Accept", value: "text/event-stream")
                request.headers.add(name: "Authorization", value: "Bearer \(watcherToken)")
                let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
                var received = ""
                for try await chunk in response.body {
                    received += String(buffer: chunk)
                    if received.contains("event: match") { return received }
                }
                return received
            }
            defer { watching.cancel() }

            // The app's own span: the trace the stack is to continue.
            let (traceId, appSpanId) = (randomHex(bytes: 16), randomHex(bytes: 8))
            let listingId = try await Self.postListing(
                "A traced lamp", through: stack.gateway, as: token, traceparent: "00-\(traceId)-\(appSpanId)-01")

            // Each process exports its spans in batches of its own, nginx's last of all: wait
            // for every span the checks below read, not only for the end of the story.
            let trace = try await collector.waitForTrace(traceId, timeout: .seconds(60)) { spans in
                spans.contains { $0.service == "commons-gateway" && $0.name == "gateway POST to listings" }
                    && spans.contains { $0.service == "listings" && $0.name == "/v1/listings" }
                    && spans.contains { $0.service == "listings" && $0.name == "append to listing" }
                    && spans.contains { $0.service == "geo-search" && $0.name.hasPrefix("apply ListingPosted") }
                    && spans.contains { $0.name == "alert matched" }
            }
            let gateway = try #require(trace.first { $0.service == "commons-gateway" && $0.name == "gateway POST to listings" }, "\(trace)")
            // The request's log line leads to its trace.
            let logged = stack.output.split(separator: "\n").filter { $0.hasPrefix("listings") && $0.contains("/v1/listings") }
            #expect(logged.contains { $0.contains(traceId) && $0.contains("trace_id") }, "\(logged)")
            #expect(gateway.parentSpanId == appSpanId, "the gateway continues the app's span")
            let server = try #require(trace.first { $0.service == "listings" && $0.name == "/v1/listings" }, "\(trace)")
            #expect(trace.isDescendant(server, of: gateway), "listings continues the gateway's span")
            let append = try #require(trace.first { $0.service == "listings" && $0.name == "append to listing" }, "\(trace)")
            #expect(trace.isDescendant(append, of: server), "the append is part of the request")
            let applied = try #require(trace.first { $0.service == "geo-search" && $0.name.hasPrefix("apply ListingPosted") }, "\(trace)")
            #expect(applied.parentSpanId == append.spanId, "geo-search continues the trace from the event's metadata")
            #expect(applied.attributes["commons.event.stream"] == "listing-\(listingId.lowercased())")
            #expect(server.attributes["http.response.status_code"] == "201")
            let matched = try #require(trace.first { $0.name == "alert matched" }, "\(trace)")
            #expect(matched.service == "geo-search" && matched.parentSpanId == append.spanId, "the neighbour's alert matched within the same trace")
            #expect(try await watching.value.contains("A traced lamp"), "the stream delivered the match the span is of")

            // Where someone is stays out of the trace store.
            let search = try await http(
                .GET, stack.gateway + "/v1/nearby/listings?lat=52.37&lon=4.89&radius=1",
                headers: ["traceparent": "00-\(randomHex(bytes: 16))-\(appSpanId)-01"])
            #expect(search.status == 200)
            let searched = try await collector.waitForSpan(timeout: .seconds(60)) { $0.service == "geo-search" && $0.name == "/v1/nearby/listings" }
            let query = try #require(searched.attributes["url.query"])
            #expect(!query.contains("52.37") && query.contains("lat=REDACTED"), "\(query)")
        }
        await collector.stop()
    }

    @Test("a stack catching up on a log makes no projection spans for the old events it applies, only for those that arrive live")
    func catchingUpMakesNoSpans() async throws {
        let collector = try await SpanCollector.start()
        let log = try await Backend.postgres.makeLog()
        let secret = Data((0..<32).map { _ in UInt8.random(in: .min ... .max) }).base64EncodedString()
        let environment = [
            "COMMONS_BCRYPT_COST": "4", "COMMONS_SIGNING_KEY_SECRET": secret, "OTEL_EXPORTER_OTLP_ENDPOINT": collector.url,
            "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json", "OTEL_BSP_SCHEDULE_DELAY": "100",
        ]
        let isApplied = { (spans: [ReceivedSpan]) in spans.contains { $0.service == "geo-search" && $0.name.hasPrefix("apply ListingPosted") } }
        let old = try UpProcess.start(seed: false, log: log, environment: environment)
        var oldTrace = ""
        try await old.run { stack in
            oldTrace = try await Self.postTracedListing(through: stack.gateway)
            _ = try await collector.waitForTrace(oldTrace, timeout: .seconds(60), until: isApplied)
        }
        // A new stack on the same log, with read models of its own: it applies the old listing while catching up.
        let new = try UpProcess.start(seed: false, log: log, environment: environment)
        try await new.run { stack in
            let newTrace = try await Self.postTracedListing(through: stack.gateway)
            _ = try await collector.waitForTrace(newTrace, timeout: .seconds(60), until: isApplied)
        }
        let appliedOld = try await collector.waitForTrace(oldTrace, timeout: .seconds(1)) { _ in true }.filter { $0.name.hasPrefix("apply ") }
        #expect(
            Set(appliedOld.map { "\($0.service) \($0.name)" }).count == appliedOld.count,
            "each projection applied the old listing in one span, live: \(appliedOld)")
        #expect(appliedOld.contains { $0.service == "geo-search" && $0.name.hasPrefix("apply ListingPosted") })
        await collector.stop()
    }

    /// Registers someone and posts a listing as them under a new trace; returns the trace id.
    private static func postTracedListing(through gateway: String) async throws -> String {
        let registered = try await http(
            .POST, gateway + "/v1/accounts",
            json: [
                "email": "tracer-\(UUID().uuidString.prefix(8).lowercased())@example.com",
                "password": "a-long-enough-secret", "displayName": "Tracer",
            ])
        #expect(registered.status == 201, "\(registered)")
        let token = try #require(registered.json()["accessToken"] as? String)
        let traceId = randomHex(bytes: 16)
        _ = try await postListing("A traced chair", through: gateway, as: token, traceparent: "00-\(traceId)-\(randomHex(bytes: 8))-01")
        return traceId
    }

    /// Posts a listing titled `title` as the holder of `token`, sending `traceparent`; returns its id.
    private static func postListing(_ title: String, through gateway: String, as token: String, traceparent: String) async throws -> String {
        var request = HTTPClientRequest(url: gateway + "/v1/listings")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "traceparent", value: traceparent)
        request.body = .bytes(
            ByteBuffer(
                bytes: try JSONSerialization.data(withJSONObject: [
                    "title": title, "category": "Furniture", "condition": "good",
                    "pickupLocation": ["lat": 52.3702, "lon": 4.8952],
                ])))
        let posted = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        #expect(posted.status == .created)
        let body = try JSONSerialization.jsonObject(with: Data(try await posted.body.collect(upTo: 1 << 20).readableBytesView)) as? [String: Any]
        return try #require(body?["id"] as? String)
    }
}

/// A span as the collector received it, ids in lowercase hex.
struct ReceivedSpan: CustomStringConvertible, Sendable {
    var service: String
    var name: String
    var traceId: String
    var spanId: String
    var parentSpanId: String?
    /// String, integer and boolean attributes, as text.
    var attributes: [String: String]

    var description: String { "\(service): \(name) [\(spanId) ← \(parentSpanId ?? "root")]" }
}

extension [ReceivedSpan] {
    /// Whether `span`'s chain of parents reaches `ancestor`.
    func isDescendant(_ span: ReceivedSpan, of ancestor: ReceivedSpan) -> Bool {
        var current = span
        while let parent = current.parentSpanId {
            if parent == ancestor.spanId { return true }
            guard let next = first(where: { $0.spanId == parent }) else { return false }
            current = next
        }
        return false
    }
}

/// An OTLP/HTTP receiver for traces in JSON, on a free loopback port.
final class SpanCollector: Sendable {
    let url: String
    private let spans: SpanStore
    private let server: Task<Void, any Error>

    private init(url: String, spans: SpanStore, server: Task<Void, any Error>) {
        self.url = url
        self.spans = spans
        self.server = server
    }

    static func start() async throws -> SpanCollector {
        let port = try FreePorts.pick()
        let spans = SpanStore()
        let router = Router()
        router.post("/v1/traces") { request, context -> Response in
            let body = try await request.body.collect(upTo: 16 << 20)
            await spans.add(try Self.decode(Data(body.readableBytesView)))
            var headers = HTTPFields()
            headers[.contentType] = "application/json"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: "{}")))
        }
        let (listening, listened) = AsyncStream.makeStream(of: Void.self)
        let application = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { _ in listened.finish() })
        let server = Task { try await application.runService(gracefulShutdownSignals: []) }
        for await _ in listening {}
        return SpanCollector(url: "http://127.0.0.1:\(port)", spans: spans, server: server)
    }

    func stop() async {
        server.cancel()
        _ = await server.result
    }

    /// The spans of `traceId` once `complete` holds for them; throws after `timeout`.
    func waitForTrace(
        _ traceId: String, timeout: Duration, until complete: ([ReceivedSpan]) -> Bool
    ) async throws -> [ReceivedSpan] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let trace = await spans.all.filter { $0.traceId == traceId }
            if complete(trace) { return trace }
            guard ContinuousClock.now < deadline else {
                throw TestSetupError("trace \(traceId) incomplete after \(timeout): \(trace); all: \(await spans.all)")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// The first span received for which `matches` holds; throws after `timeout`.
    func waitForSpan(timeout: Duration, _ matches: (ReceivedSpan) -> Bool) async throws -> ReceivedSpan {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let span = await spans.all.first(where: matches) { return span }
            guard ContinuousClock.now < deadline else { throw TestSetupError("no such span after \(timeout): \(await spans.all)") }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// The spans of an OTLP `ExportTraceServiceRequest` in JSON.
    static func decode(_ body: Data) throws -> [ReceivedSpan] {
        let request = try JSONDecoder().decode(ExportRequest.self, from: body)
        return request.resourceSpans.flatMap { resource -> [ReceivedSpan] in
            let service = resource.resource?.attributes.first { $0.key == "service.name" }?.value.text ?? "?"
            return (resource.scopeSpans ?? []).flatMap { $0.spans ?? [] }.map { span in
                ReceivedSpan(
                    service: service, name: span.name, traceId: hex(span.traceId), spanId: hex(span.spanId),
                    parentSpanId: span.parentSpanId.flatMap { $0.isEmpty ? nil : hex($0) },
                    attributes: Dictionary((span.attributes ?? []).compactMap { attribute in attribute.value.text.map { (attribute.key, $0) } }) {
                        first, _ in first
                    })
            }
        }
    }

    /// OTLP's JSON mapping writes ids in hex; protobuf's own JSON mapping, in base64.
    private static func hex(_ id: String) -> String {
        if id.count % 2 == 0, id.allSatisfy(\.isHexDigit), id.count == 32 || id.count == 16 { return id.lowercased() }
        guard let bytes = Data(base64Encoded: id) else { return id }
        return bytes.map { String(format: "%02x", $0) }.joined()
    }

    private struct ExportRequest: Decodable {
        var resourceSpans: [ResourceSpans]
    }

    private struct ResourceSpans: Decodable {
        var resource: Resource?
        var scopeSpans: [ScopeSpans]?
    }

    private struct Resource: Decodable {
        var attributes: [Attribute]
    }

    private struct ScopeSpans: Decodable {
        var spans: [Span]?
    }

    private struct Span: Decodable {
        var traceId: String
        var spanId: String
        var parentSpanId: String?
        var name: String
        var attributes: [Attribute]?
    }

    private struct Attribute: Decodable {
        var key: String
        var value: AnyValue
    }

    /// OTLP's `AnyValue`; 64-bit integers come as JSON strings.
    private struct AnyValue: Decodable {
        var stringValue: String?
        var intValue: String?
        var boolValue: Bool?

        var text: String? { stringValue ?? intValue ?? boolValue.map { "\($0)" } }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            stringValue = try container.decodeIfPresent(String.self, forKey: .stringValue)
            boolValue = try container.decodeIfPresent(Bool.self, forKey: .boolValue)
            if let text = try? container.decodeIfPresent(String.self, forKey: .intValue) {
                intValue = text
            } else if let number = try? container.decodeIfPresent(Int64.self, forKey: .intValue) {
                intValue = String(number)
            }
        }

        private enum CodingKeys: String, CodingKey { case stringValue, intValue, boolValue }
    }
}

private actor SpanStore {
    private(set) var all: [ReceivedSpan] = []

    func add(_ spans: [ReceivedSpan]) { all += spans }
}

private func randomHex(bytes: Int) -> String {
    (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
}
