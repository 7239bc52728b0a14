import Foundation
import ReadModel
import Testing

/// A process follows a swap that another made (`commons replay --swap` beside a running
/// service) by the pointer file, which it asks about before every page it applies.
@Suite("following a swapped read model")
struct SwapFollowingTests {
    @Test("a swap by another process is followed once, every swap of a quick succession ends on the last, and no change is no change")
    func followsEverySwap() throws {
        let directory = temporaryDirectory()
        let swapper = try ReadModelDatabase(directory: directory, name: "items", projections: [TitlesProjection()])
        let follower = try ReadModelDatabase(directory: directory, name: "items", projections: [TitlesProjection()])
        #expect(try follower.followSwap() == false)
        #expect(try follower.followSwap() == false)

        let file = { (number: Int) in directory.appendingPathComponent("items.rebuilt-\(number).sqlite").path }
        try swapper.swap(to: file(1))
        #expect(try follower.followSwap() == true)
        #expect(follower.path == file(1))
        #expect(try follower.followSwap() == false)

        // Several swaps while the follower does not look: it ends on the last.
        for number in 2...5 { try swapper.swap(to: file(number)) }
        #expect(try follower.followSwap() == true)
        #expect(follower.path == file(5))
        #expect(try follower.followSwap() == false)

        // Back to a file it had before: still a change.
        try swapper.swap(to: file(1))
        #expect(try follower.followSwap() == true)
        #expect(follower.path == file(1))
        #expect(try TitlesProjection.titles(in: follower.pool).isEmpty)
    }
}
