import Foundation

/// `POST /v1/lists/{id}/items`: a product (`productId`) or free `text`; `itemId` lets an
/// offline client name the item itself.
public struct NewListItem: Codable, Sendable, Equatable {
    public var itemId: UUID?
    public var productId: UUID?
    public var text: String?
    /// 1–999 (default 1).
    public var quantity: Int?
    public var note: String?

    public init(itemId: UUID? = nil, productId: UUID? = nil, text: String? = nil, quantity: Int? = nil, note: String? = nil) {
        self.itemId = itemId
        self.productId = productId
        self.text = text
        self.quantity = quantity
        self.note = note
    }
}

/// `PATCH /v1/lists/{id}/items/{itemId}`: each field present is one edit. `quantityDelta`
/// merges with others' changes; `note: null` (`.clear`) clears the note; `after` moves the
/// item (`.clear`: to the top).
public struct ListItemChange: Codable, Sendable, Equatable {
    public var quantityDelta: Int?
    public var checked: Bool?
    public var note: PatchValue<String>?
    public var after: PatchValue<UUID>?

    enum CodingKeys: String, CodingKey { case quantityDelta, checked, note, after }

    public init(quantityDelta: Int? = nil, checked: Bool? = nil, note: PatchValue<String>? = nil, after: PatchValue<UUID>? = nil) {
        self.quantityDelta = quantityDelta
        self.checked = checked
        self.note = note
        self.after = after
    }

    /// Tells an absent key (no edit) from `null` (clear), which a synthesized decoder does not.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        quantityDelta = try container.decodeIfPresent(Int.self, forKey: .quantityDelta)
        checked = try container.decodeIfPresent(Bool.self, forKey: .checked)
        note = try PatchValue(container, .note)
        after = try PatchValue(container, .after)
    }
}

/// One offline edit of a batch: `addItem`, `changeQuantity`, `check`, `uncheck`, `setNote`,
/// `move`, `removeItem` or `rename`, with a client-chosen `commandId` that makes it safe to send again.
public struct ListCommand: Codable, Sendable, Equatable {
    public var commandId: String
    public var type: String
    public var itemId: UUID?
    public var productId: UUID?
    public var text: String?
    public var quantity: Int?
    public var note: String?
    public var delta: Int?
    public var checked: Bool?
    public var after: UUID?
    public var name: String?

    public init(
        commandId: String = UUID().uuidString.lowercased(), type: String, itemId: UUID? = nil, productId: UUID? = nil,
        text: String? = nil, quantity: Int? = nil, note: String? = nil, delta: Int? = nil, checked: Bool? = nil,
        after: UUID? = nil, name: String? = nil
    ) {
        self.commandId = commandId
        self.type = type
        self.itemId = itemId
        self.productId = productId
        self.text = text
        self.quantity = quantity
        self.note = note
        self.delta = delta
        self.checked = checked
        self.after = after
        self.name = name
    }
}

/// `POST /v1/lists/{id}/members`: shares a list with an account.
public struct NewListMember: Codable, Sendable, Equatable {
    public var accountId: UUID

    public init(accountId: UUID) {
        self.accountId = accountId
    }
}

/// What sharing a list answers: its members, the owner first.
public struct ListMembers: Codable, Sendable, Equatable {
    public var members: [UUID]

    public init(members: [UUID]) {
        self.members = members
    }
}

/// `POST /v1/lists/{id}/commands`: offline edits, applied in order.
public struct ListCommandBatch: Codable, Sendable, Equatable {
    public var commands: [ListCommand]

    public init(commands: [ListCommand]) {
        self.commands = commands
    }
}

/// What a batch answers: each command's result by its `commandId`, and the list's version.
public struct ListCommandResults: Codable, Sendable, Equatable {
    /// The result of one command.
    public struct Result: Codable, Sendable, Equatable {
        /// `applied` (now or, with `replayed`, by an earlier delivery) or `rejected`.
        public var status: ListCommandStatus
        public var replayed: Bool?
        /// Why it was rejected: the problem a single request would have got.
        public var problem: ProblemDocument?

        public init(status: ListCommandStatus, replayed: Bool? = nil, problem: ProblemDocument? = nil) {
            self.status = status
            self.replayed = replayed
            self.problem = problem
        }
    }

    public var results: [String: Result]
    public var version: Int64

    public init(results: [String: Result], version: Int64) {
        self.results = results
        self.version = version
    }
}
