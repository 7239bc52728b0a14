import Foundation
import Logging
import Testing

@testable import ServiceKit

@Suite("Text log lines")
struct TextLogHandlerTests {
    private let time = Date(timeIntervalSince1970: 1_800_000_000.125)
    private let utc = TimeZone(identifier: "UTC")!
    private let request: Logger.Metadata = [
        "method": "POST", "path": "/v1/listings", "status": "201", "ms": "12.4321",
        "requestId": "3f2a9c1e-0000-4000-8000-000000000000", "correlationId": "3f2a9c1e-0000-4000-8000-000000000000",
    ]

    private func line(_ message: String, _ metadata: Logger.Metadata, level: Logger.Level = .info, showsProbes: Bool = false) -> String? {
        TextLogHandler.line(level: level, message: message, metadata: metadata, at: time, showsProbes: showsProbes, timeZone: utc)
    }

    @Test("a request is one line: time, method, path, status, duration and the request id's start")
    func requestLine() {
        #expect(line("request", request) == "08:00:00.125 POST /v1/listings → 201 in 12.4 ms [3f2a9c1e]")
    }

    @Test("health checks and metrics scrapes are hidden unless asked for")
    func probes() {
        for path in ["/health/live", "/health/ready", "/metrics"] {
            var probe = request
            probe["path"] = .string(path)
            #expect(line("request", probe) == nil)
            #expect(line("request", probe, showsProbes: true)?.contains("POST \(path) → 201") == true)
        }
        var lookalike = request
        lookalike["path"] = "/healthy-recipes"
        #expect(line("request", lookalike) != nil)
    }

    @Test("other events show their level above info, message and metadata; ids are not repeated")
    func otherEvents() {
        let warning = line("projection parked an event", ["projection": "geo", "position": "42", "correlationId": "c"], level: .warning)
        #expect(warning == "08:00:00.125 warning: projection parked an event position=42 projection=geo")
        #expect(line("listening", ["port": "8082"]) == "08:00:00.125 listening port=8082")
    }

    @Test("durations keep three significant figures")
    func durations() {
        #expect(TextLogHandler.readable(milliseconds: 0.4213) == "0.42 ms")
        #expect(TextLogHandler.readable(milliseconds: 318.2) == "318 ms")
        #expect(TextLogHandler.readable(milliseconds: 2_412) == "2.41 s")
    }
}
