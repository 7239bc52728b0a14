import Foundation
import Testing

@testable import ServiceKit

/// A first answer to an `Idempotency-Key` is stored as the JSON `JSONEncoder` would write, and
/// read back by `JSONDecoder` when a retry replays it.
@Suite("idempotency: stored answers")
struct StoredResponseTests {
    @Test("1,000 random answers (any byte in the body, escapes in the headers) read back as they were stored")
    func roundTrips() throws {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "Z", "\"", "\\", "\n", "\u{1}", "é", "/", "😀", " ", "\u{7F}"]
        func text() -> String { (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined() }
        for _ in 0..<1_000 {
            var headers: [String: String] = [:]
            for _ in 0..<Int.random(in: 0...5, using: &generator) { headers[text()] = text() }
            let body = (0..<Int.random(in: 0...300, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let stored = IdempotencyMiddleware.StoredResponse(status: Int.random(in: 100...599, using: &generator), headers: headers, body: body)
            let read = try JSONDecoder().decode(IdempotencyMiddleware.StoredResponse.self, from: stored.json())
            #expect(read == stored)
        }
        // Every byte value, and an answer with no body and no headers.
        let all = IdempotencyMiddleware.StoredResponse(status: 201, headers: ["ETag": "\"3\""], body: Array(0...255))
        #expect(try JSONDecoder().decode(IdempotencyMiddleware.StoredResponse.self, from: all.json()) == all)
        let empty = IdempotencyMiddleware.StoredResponse(status: 204, headers: [:], body: [])
        #expect(String(decoding: empty.json(), as: UTF8.self) == #"{"body":[],"headers":{},"status":204}"#)
    }
}
