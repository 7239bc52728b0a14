import Backoff
import Synchronization
import Testing

@testable import ServiceKit

/// A new replica asks its snapshot source again while the peer is not ready or not reachable.
@Suite("snapshot source patience")
struct SnapshotPatienceTests {
    private let quick = Backoff(initial: .milliseconds(1), maximum: .milliseconds(2))

    struct Unreachable: Error {}

    @Test("a peer that is not ready (503) or not reachable is asked again until it answers")
    func asksAgain() async throws {
        let tries = Mutex(0)
        let answer = try await SnapshotRestore.patiently(for: .seconds(60), pauses: quick) {
            let n = tries.withLock {
                $0 += 1; return $0
            }
            if n == 1 { throw Unreachable() }
            if n < 4 { throw SnapshotRestore.PeerRefused(status: 503, detail: "still catching up") }
            return "snapshot"
        }
        #expect(answer == "snapshot")
        #expect(tries.withLock { $0 } == 4)
    }

    @Test("a peer that refuses for good (403) is not asked again; patience spent gives the last error")
    func givesUp() async throws {
        let tries = Mutex(0)
        await #expect(throws: SnapshotRestore.PeerRefused.self) {
            try await SnapshotRestore.patiently(for: .seconds(60), pauses: quick) {
                tries.withLock { $0 += 1 }
                throw SnapshotRestore.PeerRefused(status: 403, detail: "no credential")
            }
        }
        #expect(tries.withLock { $0 } == 1)
        await #expect(throws: Unreachable.self) {
            try await SnapshotRestore.patiently(for: .zero, pauses: quick) { () async throws -> Int in throw Unreachable() }
        }
    }
}
