import Foundation

extension ShoppingListState {
    /// What `command` by `actor` changes, or why it is refused. Pure: the same state and
    /// command always give the same answer. A command that changes nothing (checking a
    /// checked item, removing a removed one) gives no changes.
    public func decide(_ command: ShoppingListCommand, by actor: UUID) throws(ShoppingListError) -> [ShoppingListChange] {
        if case .create(let name) = command {
            guard ownerId == nil else { throw .listExists }
            if let problem = ShoppingListRules.nameProblem(name) { throw .invalid(["name": [problem]]) }
            return [.created(ownerId: actor, name: ShoppingListRules.trimmed(name))]
        }
        guard isMember(actor) else { throw .listNotFound }
        switch command {
        case .create:
            throw .listExists
        case .rename(let name):
            guard ownerId == actor else { throw .ownerOnly }
            if let problem = ShoppingListRules.nameProblem(name) { throw .invalid(["name": [problem]]) }
            return [.renamed(name: ShoppingListRules.trimmed(name))]
        case .delete:
            guard ownerId == actor else { throw .ownerOnly }
            return [.deleted]
        case .addMember(let account):
            guard ownerId == actor else { throw .ownerOnly }
            guard account != actor else { throw .invalid(["accountId": ["is the owner already"]]) }
            if members.contains(account) { return [] }
            guard members.count < ShoppingListRules.maxMembers else {
                throw .invalid(["accountId": ["a list has at most \(ShoppingListRules.maxMembers) members"]])
            }
            return [.memberAdded(account)]
        case .removeMember(let account):
            if account == actor {
                guard ownerId != actor else { throw .ownerCannotLeave }
                return [.memberRemoved(account, by: actor)]
            }
            guard ownerId == actor else { throw .ownerOnly }
            guard members.contains(account) else { throw .memberNotFound }
            return [.memberRemoved(account, by: actor)]
        case let .addItem(itemId, productId, text, quantity, note):
            return try add(ItemDraft(itemId: itemId, authorId: actor, productId: productId, text: text, quantity: quantity, note: note))
        case let .changeQuantity(itemId, delta):
            let item = try liveItem(itemId)
            guard delta != 0 else { throw .invalid(["delta": ["must not be 0"]]) }
            if let problem = ShoppingListRules.deltaProblem(delta) { throw .invalid(["delta": [problem]]) }
            // A replayed quantity is not bounded by today's rules, so the sum is checked too (issue 21).
            let (quantity, overflow) = item.quantity.addingReportingOverflow(delta)
            guard !overflow else { throw .invalid(["delta": ["would make the quantity overflow"]]) }
            if let problem = ShoppingListRules.quantityProblem(quantity) {
                throw .invalid(["delta": ["would make the quantity \(quantity); it \(problem)"]])
            }
            return [.quantityChanged(itemId: itemId, delta: delta)]
        case let .setChecked(itemId, checked):
            return try liveItem(itemId).checked == checked ? [] : [.checkSet(itemId: itemId, checked: checked)]
        case let .setNote(itemId, note):
            _ = try liveItem(itemId)
            if let note, let problem = ShoppingListRules.noteProblem(note) { throw .invalid(["note": [problem]]) }
            let kept = note.map(ShoppingListRules.trimmed).flatMap { $0.isEmpty ? nil : $0 }
            return [.noteSet(itemId: itemId, note: kept)]
        case let .move(itemId, after):
            _ = try liveItem(itemId)
            return [.moved(itemId: itemId, rank: try rank(forMoving: itemId, after: after))]
        case .removeItem(let itemId):
            guard let item = items[itemId] else { throw .itemNotFound }
            return item.removed ? [] : [.itemRemoved(itemId: itemId)]
        }
    }

    private func add(_ draft: ItemDraft) throws(ShoppingListError) -> [ShoppingListChange] {
        var problems: [String: [String]] = [:]
        switch (draft.productId, draft.text) {
        case (nil, nil): problems["productId"] = ["give a productId or a text"]
        case (.some, .some): problems["text"] = ["give a productId or a text, not both"]
        case (nil, .some(let text)): if let problem = ShoppingListRules.textProblem(text) { problems["text"] = [problem] }
        case (.some, nil): break
        }
        if let problem = ShoppingListRules.quantityProblem(draft.quantity) { problems["quantity"] = [problem] }
        if let note = draft.note, let problem = ShoppingListRules.noteProblem(note) { problems["note"] = [problem] }
        guard problems.isEmpty else { throw .invalid(problems) }
        guard items[draft.itemId] == nil else { throw .itemExists }
        guard items.values.count(where: { !$0.removed }) < ShoppingListRules.maxItems else { throw .listFull }
        var kept = draft
        kept.text = draft.text.map(ShoppingListRules.trimmed)
        kept.note = draft.note.map(ShoppingListRules.trimmed).flatMap { $0.isEmpty ? nil : $0 }
        let last = items.values.map(\.rank).max() ?? 0
        return [.itemAdded(kept, rank: last + 1)]
    }

    private func liveItem(_ itemId: UUID) throws(ShoppingListError) -> Item {
        guard let item = items[itemId] else { throw .itemNotFound }
        guard !item.removed else { throw .itemRemoved }
        return item
    }

    /// A rank just after `after` (before whatever follows it), or before the first item.
    private func rank(forMoving itemId: UUID, after: UUID?) throws(ShoppingListError) -> Double {
        let others = orderedLiveItems.filter { $0.id != itemId }
        guard let after else { return (others.first?.item.rank ?? 1) - 1 }
        guard after != itemId else { throw .invalid(["after": ["must be another item"]]) }
        guard let index = others.firstIndex(where: { $0.id == after }) else {
            throw items[after] == nil ? .invalid(["after": ["is not an item of this list"]]) : .itemRemoved
        }
        let low = others[index].item.rank
        guard index + 1 < others.count else { return low + 1 }
        return (low + others[index + 1].item.rank) / 2
    }
}
