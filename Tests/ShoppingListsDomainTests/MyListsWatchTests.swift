import Foundation
import ShoppingListsDomain
import Testing

/// given(what the watcher knows) / when(a list's changes) / then(which of them are sent).
@Suite("my lists: which list changes reach an account's stream")
struct MyListsWatchTests {
    let me = UUID()
    let owner = UUID()
    let other = UUID()
    let list = UUID()

    func sent(_ watch: inout MyListsWatch, _ changes: [ShoppingListChange]) -> [Bool] {
        var sent: [Bool] = []
        for change in changes { sent.append(watch.admit(change, of: list)) }
        return sent
    }

    @Test("a list shared with me, renamed and then unshared reaches me up to my removal; others' lists never do")
    func sharedThenUnshared() {
        var watch = MyListsWatch(watcher: me)
        let changes: [ShoppingListChange] = [
            .created(ownerId: owner, name: nil), .renamed(name: nil), .memberAdded(me), .renamed(name: nil), .memberAdded(other),
            .memberRemoved(me, by: owner), .renamed(name: nil), .deleted,
        ]
        #expect(sent(&watch, changes) == [false, false, true, true, true, true, false, false])
    }

    @Test("my own list reaches me from its making to its deletion, and nothing after")
    func ownList() {
        var watch = MyListsWatch(watcher: me)
        let changes: [ShoppingListChange] = [.created(ownerId: me, name: nil), .memberAdded(other), .deleted, .renamed(name: nil)]
        #expect(sent(&watch, changes) == [true, true, true, false])
    }

    @Test("a list first seen mid-way is learnt from its state before the change")
    func learnt() {
        let before = ShoppingListState.replay([.created(ownerId: owner, name: nil), .memberAdded(me)])
        var watch = MyListsWatch(watcher: me)
        #expect(!watch.knows(list))
        watch.learn(list, before: before)
        #expect(watch.knows(list))
        #expect(sent(&watch, [.renamed(name: nil)]) == [true])
        var stranger = MyListsWatch(watcher: other)
        stranger.learn(list, before: before)
        #expect(sent(&stranger, [.renamed(name: nil)]) == [false])
    }
}
