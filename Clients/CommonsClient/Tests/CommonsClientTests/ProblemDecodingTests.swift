import CommonsClient
import Foundation
import Testing

@Suite("problem documents")
struct ProblemDecodingTests {
    @Test("a validation problem keeps its type, status, detail and every field's messages")
    func validation() {
        let body = Data(
            """
            {"type":"https://commons.example/problems/validation","title":"Invalid request","status":422,
             "detail":"The request has invalid fields.","errors":{"title":["is required"],"price.amountMinor":["must be positive","too big"]}}
            """.utf8)
        let problem = CommonsProblem.decode(status: 422, body: body)
        #expect(problem.status == 422)
        #expect(problem.kind == "validation")
        #expect(problem.title == "Invalid request")
        #expect(problem.detail == "The request has invalid fields.")
        #expect(problem.errors == ["title": ["is required"], "price.amountMinor": ["must be positive", "too big"]])
    }

    @Test("extensions and Retry-After are kept")
    func extensions() {
        let body = Data(
            """
            {"type":"https://commons.example/problems/stale-version","title":"Precondition Failed","status":412,
             "detail":"changed","extensions":{"version":"4"}}
            """.utf8)
        let problem = CommonsProblem.decode(status: 412, body: body, retryAfter: "3")
        #expect(problem.kind == "stale-version")
        #expect(problem.extensions["version"] == "4")
        #expect(problem.retryAfter == 3)
    }

    @Test("a gateway's HTML error page becomes a problem of its status")
    func notADocument() {
        let problem = CommonsProblem.decode(status: 502, body: Data("<html><body>Bad Gateway</body></html>".utf8))
        #expect(problem.status == 502)
        #expect(problem.type == "about:blank")
        #expect(problem.detail.isEmpty)
        #expect(problem.errors.isEmpty)
    }

    @Test("a refused call throws the problem; a dead connection throws a transport error")
    func thrownKinds() async throws {
        let refused = ScriptedTransport([
            .respond(
                .problem(
                    409,
                    """
                    {"type":"https://commons.example/problems/insufficient-funds","title":"Conflict","status":409,"detail":"short",
                     "extensions":{"balanceMinor":"100"}}
                    """))
        ])
        let error = await #expect(throws: CommonsProblem.self) {
            _ = try await client(refused, tokens: signedIn).donations.donate(NewDonation(organization: "nets", amountMinor: 500, currency: "USD"))
        }
        #expect(error?.kind == "insufficient-funds")
        #expect(error?.extensions["balanceMinor"] == "100")

        let dead = ScriptedTransport([.fail, .fail, .fail, .fail])
        await #expect(throws: CommonsTransportError.self) {
            _ = try await client(dead).accounts.profile(Answers.accountId)
        }
        #expect(dead.sent.count == 4, "a read is tried as often as the policy says")
    }
}
