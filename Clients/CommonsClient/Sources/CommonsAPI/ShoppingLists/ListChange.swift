import Foundation

/// One change of a list as collaborators receive it live (`GET /v1/lists/{id}/events`):
/// the event's type and fields, with what people wrote opened for the member watching.
public struct ListChange: Codable, Sendable, Equatable {
    public var version: Int64
    /// What happened; which other fields are set depends on it.
    public var type: ListChangeType
    public var at: Date
    public var by: String?
    public var itemId: UUID?
    public var productId: UUID?
    public var accountId: UUID?
    public var name: String?
    public var text: String?
    public var note: String?
    public var quantity: Int?
    public var delta: Int?
    public var checked: Bool?
    public var rank: Double?

    /// A change; `type` is the event's stored name, known to this SDK or not.
    public init(
        version: Int64, type: String, at: Date, by: String? = nil, itemId: UUID? = nil, productId: UUID? = nil, accountId: UUID? = nil,
        name: String? = nil, text: String? = nil, note: String? = nil, quantity: Int? = nil, delta: Int? = nil, checked: Bool? = nil,
        rank: Double? = nil
    ) {
        self.version = version
        self.type = ListChangeType(rawValue: type)
        self.at = at
        self.by = by
        self.itemId = itemId
        self.productId = productId
        self.accountId = accountId
        self.name = name
        self.text = text
        self.note = note
        self.quantity = quantity
        self.delta = delta
        self.checked = checked
        self.rank = rank
    }
}
