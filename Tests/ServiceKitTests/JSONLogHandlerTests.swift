import Foundation
import Logging
import Testing

@testable import ServiceKit

@Suite("JSON log lines")
struct JSONLogHandlerTests {
    private func fields(_ metadata: Logger.Metadata, at time: Date = Date(timeIntervalSince1970: 1_800_000_000.125)) throws -> [String: Any] {
        let line = try #require(JSONLogHandler.line(level: .info, label: "commons.test", message: "request", metadata: metadata, at: time))
        return try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
    }

    @Test("the time is ISO 8601 in UTC to the millisecond")
    func millisecondTimestamps() throws {
        #expect(try fields([:])["time"] as? String == "2027-01-15T08:00:00.125Z")
        #expect(try fields([:], at: Date(timeIntervalSince1970: 1_800_000_000))["time"] as? String == "2027-01-15T08:00:00.000Z")
    }

    @Test("numbers are JSON numbers; text that a number would change stays text")
    func numbersAsNumbers() throws {
        let line = try fields([
            "status": "201", "ms": "9231.82", "count": .stringConvertible(42), "negative": "-7",
            "zip": "01234", "exponent": "1e3", "id": "6f1c", "word": "nan", "list": .array(["1", "a"]),
        ])
        #expect(line["status"] as? Int == 201)
        #expect(line["ms"] as? Double == 9231.82)
        #expect(line["count"] as? Int == 42)
        #expect(line["negative"] as? Int == -7)
        #expect(line["zip"] as? String == "01234")
        #expect(line["exponent"] as? String == "1e3")
        #expect(line["id"] as? String == "6f1c")
        #expect(line["word"] as? String == "nan")
        let list = try #require(line["list"] as? [Any])
        #expect(list.first as? Int == 1 && list.last as? String == "a")
        #expect(line["message"] as? String == "request" && line["level"] as? String == "info" && line["logger"] as? String == "commons.test")
    }
}
