import CommonsClient
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("cancelling live requests")
struct LiveCancellationTests {
    @Test("cancelling the task ends a URLSession request at once, long before its 30 s timeout")
    func transport() async throws {
        let server = try SilentServer()
        let session = URLSession(configuration: .ephemeral)
        let transport = URLSessionTransport(session: session, timeout: 30)
        let call = Task { try await transport.send(HTTPRequestData(method: "GET", url: server.url.appendingPathComponent("v1/me"))) }
        try await Task.sleep(for: .milliseconds(200))
        #expect(await Self.tasks(of: session) == 1, "the request is on its way")
        let cancelled = ContinuousClock.now
        call.cancel()
        let result = await call.result
        #expect(ContinuousClock.now - cancelled < .seconds(5))
        #expect(throws: CancellationError.self) { try result.get() }
        try await waitUntil("the data task is cancelled, not left to time out") { await Self.tasks(of: session) == 0 }
    }

    @Test("through the client, a cancelled call throws CancellationError, not a transport error")
    func throughTheClient() async throws {
        let server = try SilentServer()
        let commons = CommonsClient(baseURL: server.url, transport: URLSessionTransport(timeout: 30))
        let call = Task { try await commons.accounts.profile(UUID()) }
        try await Task.sleep(for: .milliseconds(200))
        let cancelled = ContinuousClock.now
        call.cancel()
        let result = await call.result
        #expect(ContinuousClock.now - cancelled < .seconds(5))
        #expect(throws: CancellationError.self) { try result.get() }
    }

    /// How many tasks of `session` have not finished.
    static func tasks(of session: URLSession) async -> Int {
        await withCheckedContinuation { continuation in
            session.getAllTasks { continuation.resume(returning: $0.count) }
        }
    }
}
