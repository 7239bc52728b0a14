import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServiceKit
import Testing

@Suite("health, metrics, OpenAPI, configuration")
struct OperationsEndpointTests {
    @Test("health, readiness, metrics and the OpenAPI document are served")
    func endpoints() async throws {
        try await KitHarness().test { client, runtime, routes in
            try await client.execute(uri: "/health/live", method: .get) { #expect($0.status == .ok) }
            for _ in 0..<50 where !runtime.isReady { try await Task.sleep(for: .milliseconds(100)) }
            try await client.execute(uri: "/health/ready", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                #expect(text.contains("commons_http_request_duration_seconds"))
            }
            try await client.execute(uri: "/openapi.json", method: .get) { response in
                #expect(response.json["openapi"] as? String == "3.1.0")
                let paths = response.json["paths"] as? [String: Any] ?? [:]
                #expect(paths["/v1/widgets/{id}"] != nil)
            }
            // Every route the service serves is in its document.
            #expect(Set(routes).subtracting(WidgetsService.definition.openAPI.documentedRoutes).isEmpty)
            #expect(WidgetsService.definition.openAPI.documentedRoutes.subtracting(routes).isEmpty)
        }
    }

    @Test("bad configuration fails with one line that names the variable")
    func badConfiguration() {
        #expect(throws: ConfigurationError(key: "COMMONS_PORT", problem: "'eighty' is not a whole number from 0 to 65535")) {
            try ServiceConfiguration(service: "x", defaultPort: 1, environment: EnvironmentVariables(["COMMONS_PORT": "eighty"]))
        }
        #expect(throws: ConfigurationError.self) {
            try ServiceConfiguration(service: "x", defaultPort: 1, environment: EnvironmentVariables(["COMMONS_LOG_LEVEL": "loud"]))
        }
        #expect(throws: ConfigurationError.self) {
            try ServiceConfiguration(service: "x", defaultPort: 1, environment: EnvironmentVariables(["COMMONS_ACCOUNTS_URL": "ftp://x"]))
        }
        #expect(throws: ConfigurationError(key: "COMMONS_LOG_FORMAT", problem: "'pretty' is not one of json, text")) {
            try ServiceConfiguration(service: "x", defaultPort: 1, environment: EnvironmentVariables(["COMMONS_LOG_FORMAT": "pretty"]))
        }
        #expect(throws: ConfigurationError.self) {
            try ServiceConfiguration(service: "x", defaultPort: 1, environment: EnvironmentVariables(["COMMONS_LOG_PROBES": "yes"]))
        }
        #expect(throws: ConfigurationError.self) {
            try ServiceConfiguration(service: "x", defaultPort: 1, environment: EnvironmentVariables(["COMMONS_MIN_POSITION_PATIENCE_MS": "5"]))
        }
        let patient = try? ServiceConfiguration(
            service: "x", defaultPort: 1, environment: EnvironmentVariables(["COMMONS_MIN_POSITION_PATIENCE_MS": "50"]))
        #expect(patient?.readYourWritesPatience == .milliseconds(50))
        let defaults = try? ServiceConfiguration(service: "x", defaultPort: 8089, environment: EnvironmentVariables([:]))
        #expect(defaults?.port == 8089)
        #expect(defaults?.logFormat == .json && defaults?.logsProbes == false)
        #expect(defaults?.readYourWritesPatience == .seconds(2))
        #expect(defaults?.eventStore == .sqlite(path: URL(fileURLWithPath: ".commons").appendingPathComponent("events.sqlite").path))
    }

    @Test("a rate limiter refills over time")
    func limiterRefills() {
        let limiter = RateLimiter(limit: 2, window: .seconds(2))
        let start = ContinuousClock.now
        #expect(limiter.take("a", now: start).allowed)
        #expect(limiter.take("a", now: start).allowed)
        #expect(!limiter.take("a", now: start).allowed)
        #expect(limiter.take("b", now: start).allowed)
        #expect(limiter.take("a", now: start + .seconds(1)).allowed)
    }

    @Test("cycling through more keys than the limiter holds resets no one else's limit, and memory stays bounded")
    func limiterChurn() {
        let limiter = RateLimiter(limit: 3, window: .seconds(60), capacity: 10)
        let start = ContinuousClock.now
        for _ in 0..<3 { #expect(limiter.take("client:victim-of-its-own-pace", now: start).allowed) }
        #expect(!limiter.take("client:victim-of-its-own-pace", now: start).allowed)
        for n in 0..<1_000 {
            _ = limiter.take("client:10.0.\(n / 256).\(n % 256)", now: start + .milliseconds(n))
            #expect(limiter.count <= 10)
        }
        #expect(!limiter.take("client:victim-of-its-own-pace", now: start + .seconds(1)).allowed, "still held back")
    }
}
