import Foundation
import ShoppingListsDomain
import Testing

/// given(changes) / when(command) / then(changes or error), without I/O.
@Suite("shopping list decisions")
struct ShoppingListDecideTests {
    let owner = UUID()
    let member = UUID()
    let stranger = UUID()
    let milk = UUID()
    let bread = UUID()
    let eggs = UUID()

    func given(_ changes: ShoppingListChange...) -> ShoppingListState { .replay(changes) }

    var shared: ShoppingListState {
        given(
            .created(ownerId: owner, name: nil), .memberAdded(member),
            .itemAdded(ItemDraft(itemId: milk, authorId: owner, productId: UUID(), text: nil, quantity: 2, note: nil), rank: 1),
            .itemAdded(ItemDraft(itemId: bread, authorId: member, productId: nil, text: "bread", quantity: 1, note: nil), rank: 2))
    }

    @Test("creating trims the name; an empty or long name is refused; a list is made once")
    func create() throws {
        #expect(try ShoppingListState().decide(.create(name: "  Weekend  "), by: owner) == [.created(ownerId: owner, name: "Weekend")])
        #expect(throws: ShoppingListError.invalid(["name": ["must not be empty"]])) { try ShoppingListState().decide(.create(name: " "), by: owner) }
        #expect(throws: ShoppingListError.invalid(["name": ["must be at most 100 characters"]])) {
            try ShoppingListState().decide(.create(name: String(repeating: "x", count: 101)), by: owner)
        }
        #expect(throws: ShoppingListError.listExists) { try shared.decide(.create(name: "again"), by: owner) }
    }

    @Test("a list holds at most 500 items; a removed one makes room again")
    func itemCap() throws {
        var state = given(.created(ownerId: owner, name: nil))
        var ids: [UUID] = []
        for n in 0..<ShoppingListRules.maxItems {
            let id = UUID()
            ids.append(id)
            for change in try state.decide(.addItem(itemId: id, productId: nil, text: "item \(n)", quantity: 1, note: nil), by: owner) {
                state.evolve(change)
            }
        }
        #expect(throws: ShoppingListError.listFull) {
            try state.decide(.addItem(itemId: UUID(), productId: nil, text: "one more", quantity: 1, note: nil), by: owner)
        }
        for change in try state.decide(.removeItem(itemId: ids[0]), by: owner) { state.evolve(change) }
        #expect(try state.decide(.addItem(itemId: UUID(), productId: nil, text: "one more", quantity: 1, note: nil), by: owner).count == 1)
    }

    @Test("a stranger learns nothing: every command is 'not found', as for a list that does not exist")
    func strangers() {
        for command: ShoppingListCommand in [
            .rename(name: "x"), .delete, .addMember(stranger), .changeQuantity(itemId: milk, delta: 1),
            .setChecked(itemId: milk, checked: true), .removeItem(itemId: milk),
        ] {
            #expect(throws: ShoppingListError.listNotFound) { try shared.decide(command, by: stranger) }
            #expect(throws: ShoppingListError.listNotFound) { try ShoppingListState().decide(command, by: owner) }
        }
        var deleted = shared
        deleted.evolve(.deleted)
        #expect(throws: ShoppingListError.listNotFound) { try deleted.decide(.setChecked(itemId: milk, checked: true), by: owner) }
    }

    @Test("quantities change by deltas, so two concurrent increments both count; the total stays within 1–999")
    func quantityDeltas() throws {
        var state = shared
        // Two members decided +1 on the same version; the second decides again after the first landed.
        let first = try state.decide(.changeQuantity(itemId: milk, delta: 1), by: owner)
        let second = try state.decide(.changeQuantity(itemId: milk, delta: 1), by: member)
        for change in first + second { state.evolve(change) }
        #expect(state.items[milk]?.quantity == 4)
        #expect(throws: ShoppingListError.invalid(["delta": ["would make the quantity 0; it must be from 1 to 999"]])) {
            try state.decide(.changeQuantity(itemId: milk, delta: -4), by: owner)
        }
        #expect(throws: ShoppingListError.invalid(["delta": ["must not be 0"]])) {
            try state.decide(.changeQuantity(itemId: milk, delta: 0), by: owner)
        }
    }

    @Test("checking sets a value: checking twice or by two people ends checked, in either order")
    func checkingCommutes() throws {
        var a = shared
        var b = shared
        let one = try a.decide(.setChecked(itemId: milk, checked: true), by: owner)
        let two = try b.decide(.setChecked(itemId: milk, checked: true), by: member)
        for change in one + two { a.evolve(change) }
        for change in two + one { b.evolve(change) }
        #expect(a == b)
        #expect(a.items[milk]?.checked == true)
        #expect(try a.decide(.setChecked(itemId: milk, checked: true), by: owner).isEmpty)
    }

    @Test("editing a removed item is refused (409), removing it again changes nothing, an unknown item is not found")
    func removedItems() throws {
        var state = shared
        for change in try state.decide(.removeItem(itemId: bread), by: member) { state.evolve(change) }
        #expect(throws: ShoppingListError.itemRemoved) { try state.decide(.changeQuantity(itemId: bread, delta: 1), by: owner) }
        #expect(throws: ShoppingListError.itemRemoved) { try state.decide(.setChecked(itemId: bread, checked: true), by: owner) }
        #expect(throws: ShoppingListError.itemRemoved) { try state.decide(.setNote(itemId: bread, note: "x"), by: owner) }
        #expect(try state.decide(.removeItem(itemId: bread), by: owner).isEmpty)
        #expect(throws: ShoppingListError.itemNotFound) { try state.decide(.setChecked(itemId: eggs, checked: true), by: owner) }
    }

    @Test("an item is a product or free text, with quantity 1–999 and a short note; every bad field is reported")
    func addingItems() throws {
        #expect(throws: ShoppingListError.invalid(["productId": ["give a productId or a text"], "quantity": ["must be from 1 to 999"]])) {
            try shared.decide(.addItem(itemId: eggs, productId: nil, text: nil, quantity: 1000, note: nil), by: member)
        }
        #expect(throws: ShoppingListError.invalid(["text": ["give a productId or a text, not both"], "note": ["must be at most 500 characters"]])) {
            try shared.decide(
                .addItem(itemId: eggs, productId: UUID(), text: "eggs", quantity: 1, note: String(repeating: "n", count: 501)), by: member)
        }
        #expect(throws: ShoppingListError.itemExists) {
            try shared.decide(.addItem(itemId: milk, productId: nil, text: "milk", quantity: 1, note: nil), by: member)
        }
        let added = try shared.decide(.addItem(itemId: eggs, productId: nil, text: " eggs ", quantity: 6, note: " free range "), by: member)
        #expect(
            added == [.itemAdded(ItemDraft(itemId: eggs, authorId: member, productId: nil, text: "eggs", quantity: 6, note: "free range"), rank: 3)])
    }

    @Test("moving puts an item between its new neighbours, or on top")
    func moving() throws {
        var state = shared
        for change in try state.decide(.addItem(itemId: eggs, productId: nil, text: "eggs", quantity: 1, note: nil), by: owner) {
            state.evolve(change)
        }
        for change in try state.decide(.move(itemId: eggs, after: milk), by: member) { state.evolve(change) }
        #expect(state.orderedLiveItems.map(\.id) == [milk, eggs, bread])
        for change in try state.decide(.move(itemId: bread, after: nil), by: member) { state.evolve(change) }
        #expect(state.orderedLiveItems.map(\.id) == [bread, milk, eggs])
        #expect(throws: ShoppingListError.invalid(["after": ["must be another item"]])) {
            try state.decide(.move(itemId: milk, after: milk), by: owner)
        }
    }

    @Test("only the owner renames, deletes and manages members; members leave; the owner cannot leave")
    func membership() throws {
        #expect(throws: ShoppingListError.ownerOnly) { try shared.decide(.rename(name: "Mine now"), by: member) }
        #expect(throws: ShoppingListError.ownerOnly) { try shared.decide(.delete, by: member) }
        #expect(throws: ShoppingListError.ownerOnly) { try shared.decide(.addMember(stranger), by: member) }
        #expect(throws: ShoppingListError.ownerOnly) { try shared.decide(.removeMember(owner), by: member) }
        #expect(throws: ShoppingListError.ownerCannotLeave) { try shared.decide(.removeMember(owner), by: owner) }
        #expect(throws: ShoppingListError.memberNotFound) { try shared.decide(.removeMember(stranger), by: owner) }
        #expect(try shared.decide(.addMember(member), by: owner).isEmpty)
        #expect(try shared.decide(.removeMember(member), by: member) == [.memberRemoved(member, by: member)])
        var left = shared
        left.evolve(.memberRemoved(member, by: owner))
        #expect(!left.isMember(member))
        #expect(throws: ShoppingListError.listNotFound) { try left.decide(.setChecked(itemId: milk, checked: true), by: member) }
    }
}

@Suite("following a list live")
struct ListWatchTests {
    let owner = UUID()
    let member = UUID()

    var shared: ShoppingListState { .replay([.created(ownerId: owner, name: nil), .memberAdded(member)]) }

    @Test("a removed member is sent their removal and nothing after it")
    func removal() {
        var watch = ListWatch(state: shared, watcher: member)
        let secret = ShoppingListChange.itemAdded(
            ItemDraft(itemId: UUID(), authorId: owner, productId: nil, text: "secret", quantity: 1, note: nil), rank: 1)
        let admitted = [ShoppingListChange.renamed(name: nil), .memberRemoved(member, by: owner), secret, .memberAdded(member)].map {
            watch.admit($0)
        }
        #expect(admitted == [true, true, false, false])
        #expect(watch.isOver)
    }

    @Test("a deleted list ends every watch; another member's removal ends none")
    func deletion() {
        var watch = ListWatch(state: shared, watcher: owner)
        let removal = watch.admit(.memberRemoved(member, by: owner))
        #expect(removal && !watch.isOver)
        let deletion = watch.admit(.deleted)
        #expect(deletion && watch.isOver)
        let afterwards = watch.admit(nil)
        #expect(!afterwards)
        #expect(ListWatch(state: ShoppingListState(), watcher: owner).isOver)
    }
}
