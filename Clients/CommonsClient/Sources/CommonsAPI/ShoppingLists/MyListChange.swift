import Foundation

/// One change to a list I own or share, as my lists' stream (`GET /v1/lists/events`,
/// `event: list`) sends it: a list made, shared with me or with someone else on it, left or
/// unshared, renamed, or deleted. Item edits are not sent.
public struct MyListChange: Codable, Sendable, Equatable {
    public var listId: UUID
    /// What happened (``ListChangeType``): `.created`, `.renamed`, `.deleted`, `.memberAdded` or `.memberRemoved`.
    public var type: ListChangeType
    /// The list's version after the change.
    public var version: Int64
    public var at: Date
    /// Who made the change, when known.
    public var by: String?
    /// The list's name after `created` or `renamed`.
    public var name: String?
    /// Who joined or left, for `memberAdded` and `memberRemoved`.
    public var accountId: UUID?
    /// The change's place in the log: send it as `Commons-Min-Position` to read my lists with it.
    public var position: String

    public init(
        listId: UUID, type: String, version: Int64, at: Date, by: String? = nil, name: String? = nil, accountId: UUID? = nil,
        position: String
    ) {
        self.listId = listId
        self.type = ListChangeType(rawValue: type)
        self.version = version
        self.at = at
        self.by = by
        self.name = name
        self.accountId = accountId
        self.position = position
    }
}

/// The first event of a live stream opened without `Last-Event-ID` (`event: ready`): the
/// stream sends what happens after `position`. Read the current state with
/// `Commons-Min-Position: position` and nothing falls between the two.
public struct LiveStreamStart: Codable, Sendable, Equatable {
    public var position: String

    public init(position: String) {
        self.position = position
    }
}
