import Foundation
import Testing

@testable import ServiceKit

/// ``SessionStreams``: the places live streams take, per account and in all.
@Suite("live stream places")
struct SessionStreamsTests {
    @Test("an account gets its limit, the process its total; a place left is free again")
    func limits() {
        let streams = SessionStreams(perAccount: 2, total: 3)
        let (ada, alan, grace) = (UUID(), UUID(), UUID())
        #expect(streams.enter(ada) == .entered)
        #expect(streams.enter(ada) == .entered)
        #expect(streams.enter(ada) == .accountFull)
        #expect(streams.enter(alan) == .entered)
        #expect(streams.enter(grace) == .processFull, "three open in all")
        streams.leave(ada)
        #expect(streams.enter(grace) == .entered)
        #expect(streams.count(of: ada) == 1 && streams.count(of: grace) == 1)
    }
}
