import Foundation
import ServiceKit
import Testing

@Suite("signing key ring")
struct SigningKeyRingTests {
    @Test("a rotation publishes the new key beside the old; retiring keeps the newest")
    func rotation() throws {
        let start = Date(timeIntervalSince1970: 1_000_000)
        var ring = SigningKeyRing.generate(now: start)
        let first = try #require(ring.keys.first?.kid)
        ring.rotate(now: start.addingTimeInterval(30 * 86_400))
        let second = try #require(ring.keys.last?.kid)
        #expect(first != second)
        let jwks = try ring.jwks()
        #expect(jwks.contains(first) && jwks.contains(second))
        #expect(!jwks.contains("privateKey") && !jwks.contains("\"d\""))

        ring.retire(olderThan: start.addingTimeInterval(31 * 86_400))
        #expect(ring.keys.map(\.kid) == [second])
        ring.retire(olderThan: start.addingTimeInterval(365 * 86_400))
        #expect(ring.keys.map(\.kid) == [second], "the newest key is never retired")
    }
}
