import Foundation
import ServiceKit
import Testing

/// Misspelled `COMMONS_*` variables are named, with the one meant.
@Suite("known variables")
struct KnownVariablesTests {
    @Test("the known variables are those docs/configuration.md lists, with the _FILE form of each secret")
    func matchDocumentation() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("docs/configuration.md"), encoding: .utf8)
        let documented = Set(page.matches(of: /`(COMMONS_[A-Z0-9_]+)`/).map { String($0.1) })
        let secretFiles = Set(documented.filter { $0.hasSuffix("SECRET") }.map { $0 + "_FILE" })
        #expect(KnownVariables.names == documented.union(secretFiles))
    }

    @Test("a COMMONS_ name no part reads is reported with the nearest known one; other names and known ones are not")
    func misspellings() {
        let environment = [
            "COMMONS_RATE_LIMT_PER_MINUTE": "5", "COMMONS_LOG_LEVLE": "debug", "COMMONS_WHATEVER_ELSE_ENTIRELY": "1",
            "COMMONS_PORT": "8080", "PATH": "/usr/bin", "commons_port": "1",
        ]
        let unknown = KnownVariables.unknown(in: environment)
        #expect(unknown.map(\.name) == ["COMMONS_LOG_LEVLE", "COMMONS_RATE_LIMT_PER_MINUTE", "COMMONS_WHATEVER_ELSE_ENTIRELY"])
        #expect(unknown.map(\.nearest) == ["COMMONS_LOG_LEVEL", "COMMONS_RATE_LIMIT_PER_MINUTE", nil])
        #expect(
            KnownVariables.warning(for: environment)
                == "unknown variables, ignored: COMMONS_LOG_LEVLE (did you mean COMMONS_LOG_LEVEL?), "
                + "COMMONS_RATE_LIMT_PER_MINUTE (did you mean COMMONS_RATE_LIMIT_PER_MINUTE?), COMMONS_WHATEVER_ELSE_ENTIRELY")
        #expect(KnownVariables.warning(for: ["COMMONS_PORT": "1"]) == nil)
    }
}
