import Foundation
import Testing

@testable import CommonsClient

@Suite("cancellation")
struct CancellationTests {
    static let profile = HTTPResponseData.json(200, #"{"id":"\#(Answers.accountId.uuidString)","displayName":"Ada"}"#)

    @Test("a call cancelled while it waits to retry ends at once with CancellationError and sends nothing more")
    func duringBackoff() async throws {
        let transport = ScriptedTransport([.fail, .respond(Self.profile)])
        let slow = RetryPolicy(attempts: 4, initialDelay: .seconds(30), maximumDelay: .seconds(30), jitter: 0)
        let commons = CommonsClient(baseURL: URL(string: "http://gateway.test")!, transport: transport, retry: slow)
        let call = Task { try await commons.accounts.profile(Answers.accountId) }
        try await waitUntil("the first send failed") { transport.sent.count == 1 }
        let cancelled = ContinuousClock.now
        call.cancel()
        let result = await call.result
        #expect(ContinuousClock.now - cancelled < .seconds(5), "not after the 30 s wait")
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(transport.sent.count == 1)
    }

    @Test("a request cancelled on its way is not retried, though a read is safe to repeat")
    func inFlight() async throws {
        let transport = ScriptedTransport([.hang, .respond(Self.profile), .respond(Self.profile)])
        let commons = client(transport)
        let call = Task { try await commons.accounts.profile(Answers.accountId) }
        try await waitUntil("the request was sent") { transport.sent.count == 1 }
        call.cancel()
        let result = await call.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(transport.sent.count == 1, "the transport's URLError.cancelled is not taken for an outage")
    }

    @Test("a task cancelled before it calls sends nothing")
    func beforeSending() async throws {
        let transport = ScriptedTransport([.respond(Self.profile)])
        let commons = client(transport)
        let call = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await commons.accounts.profile(Answers.accountId)
        }
        let result = await call.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(transport.sent.isEmpty)
    }
}
