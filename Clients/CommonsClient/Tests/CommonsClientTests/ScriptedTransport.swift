import Foundation

@testable import CommonsClient

/// A transport that answers from a script, one step per request, and records what it was sent.
final class ScriptedTransport: HTTPTransport {
    enum Step: Sendable {
        case respond(HTTPResponseData)
        case fail
        /// No answer until the calling task is cancelled (a server that hangs).
        case hang
    }

    private let state: Locked<(steps: [Step], sent: [HTTPRequestData])>

    init(_ steps: [Step]) {
        state = Locked((steps, []))
    }

    var sent: [HTTPRequestData] { state.withLock { $0.sent } }

    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        let step = state.withLock { state -> Step? in
            state.sent.append(request)
            return state.steps.isEmpty ? nil : state.steps.removeFirst()
        }
        switch step {
        case .respond(let response): return response
        case .fail, nil: throw URLError(.networkConnectionLost)
        case .hang:
            // Task.sleep ends with CancellationError; a live transport would throw URLError.cancelled.
            try? await Task.sleep(for: .seconds(3_600))
            throw URLError(.cancelled)
        }
    }
}

extension HTTPResponseData {
    static func json(_ status: Int, _ text: String, headers: [String: String] = [:]) -> HTTPResponseData {
        HTTPResponseData(status: status, headers: headers.merging(["Content-Type": "application/json"]) { $1 }, body: Data(text.utf8))
    }

    static func problem(_ status: Int, _ text: String, headers: [String: String] = [:]) -> HTTPResponseData {
        HTTPResponseData(status: status, headers: headers.merging(["Content-Type": "application/problem+json"]) { $1 }, body: Data(text.utf8))
    }
}

/// Answers of the kind the services give.
enum Answers {
    static let accountId = UUID(uuidString: "5a1d9f6e-4a61-4b8e-9c1c-2d7f1b0e6a01")!
    static let sessionId = UUID(uuidString: "0f3c2b1a-9d8e-4f7a-8b6c-5d4e3f2a1b00")!

    static func tokens(_ access: String, _ refresh: String, position: String = "7:41") -> HTTPResponseData {
        .json(
            201,
            """
            {"accountId":"\(accountId.uuidString)","sessionId":"\(sessionId.uuidString)","accessToken":"\(access)",\
            "refreshToken":"\(refresh)","tokenType":"Bearer","expiresIn":900}
            """, headers: ["Commons-Position": position])
    }

    static let topUp = HTTPResponseData.json(
        201,
        """
        {"id":"2b7c0a61-8d5e-4f1a-9c3b-7e6d5c4b3a21","amountMinor":2500,"currency":"USD","balanceMinor":2500,"at":"2026-11-22T10:00:00Z"}
        """, headers: ["Commons-Position": "9:120"])

    static let notReady = HTTPResponseData.problem(
        503,
        """
        {"type":"https://commons.example/problems/not-ready","title":"Service Unavailable","status":503,"detail":"not yet"}
        """, headers: ["Retry-After": "0"])
}

func client(_ transport: ScriptedTransport, tokens: Tokens? = nil) -> CommonsClient {
    CommonsClient(baseURL: URL(string: "http://gateway.test")!, tokenStore: InMemoryTokenStore(tokens), transport: transport, retry: .immediate)
}

let signedIn = Tokens(accountId: Answers.accountId, sessionId: Answers.sessionId, accessToken: "access-1", refreshToken: "refresh-1", expiresIn: 900)
