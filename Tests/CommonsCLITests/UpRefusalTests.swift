import EventLogTestSupport
import Foundation
import Testing

/// `commons up` when nothing can start: it says why and exits 2, rather than waiting.
@Suite("commons up refusing to start")
struct UpRefusalTests {
    /// `commons up` on free ports, with `environment` over the test's; its result once it exits.
    private func up(_ environment: [String: String]) async throws -> CommandResult {
        let arguments = [
            "up", "--no-seed", "--gateway-port", String(try FreePorts.pick()), "--port-offset",
            String(try FreePorts.offset(for: Array(8081...8085))),
        ]
        return try await CommonsProcess(arguments, log: nil, environment: environment).finish(timeout: UpProcess.patience)
    }

    @Test("on a PostgreSQL log without a key vault secret it starts nothing and exits 2 with one line: what to set and how to make it")
    func postgresWithoutSecret() async throws {
        let result = try await up([
            "COMMONS_EVENT_STORE": "postgres://commons@127.0.0.1:1/commons", "COMMONS_KEY_VAULT_SECRET": "",
            "COMMONS_KEY_VAULT_SECRET_FILE": "",
        ])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result)")
        #expect(result.stderr.contains("COMMONS_KEY_VAULT_SECRET") && result.stderr.contains("openssl rand -base64 32"), "\(result)")
        #expect(!result.stdout.contains("started, pid"), "no service was started: \(result)")
    }

    @Test("when every service refuses its configuration it stops and exits 2, repeating each service's line; a misspelled variable is named")
    func everyServiceRefuses() async throws {
        let result = try await up(["COMMONS_REQUEST_DEADLINE_SECONDS": "0", "COMMONS_RATE_LIMT_PER_MINUTE": "5"])
        #expect(result.status == 2, "\(result)")
        let summary = try #require(result.stderr.range(of: "commons up: every service refused its configuration:\n"), "\(result)")
        let repeated = result.stderr[summary.upperBound...].split(separator: "\n")
        #expect(!repeated.isEmpty && repeated.allSatisfy { $0.contains("COMMONS_REQUEST_DEADLINE_SECONDS") }, "\(result)")
        #expect(result.stdout.contains("no service can start"), "\(result)")
        // A misspelled variable is named, with the one meant.
        #expect(result.stderr.contains("COMMONS_RATE_LIMT_PER_MINUTE (did you mean COMMONS_RATE_LIMIT_PER_MINUTE?)"), "\(result)")
    }
}
