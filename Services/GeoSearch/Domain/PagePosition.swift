import Foundation

/// The order of a result list (`sort=distance|recent`).
public enum ResultOrder: String, Sendable, CaseIterable, Codable {
    /// Nearest first; ties by id.
    case distance
    /// Newest first; ties by id.
    case recent
}

/// Where an item sits in a sorted result list: the value it is sorted by, then its id, so
/// that no two items share a position and a page boundary never falls between equals.
public struct PagePosition: Sendable, Hashable {
    /// The order this position belongs to.
    public let order: ResultOrder
    /// Metres from the query's centre (`.distance`), or seconds since 1970 (`.recent`),
    /// exactly as computed: a cursor carries every bit of it.
    public let value: Double
    /// The item's id, which breaks ties.
    public let id: UUID

    /// The position of an item `meters` from the centre, for nearest-first lists.
    public static func distance(_ meters: Double, id: UUID) -> PagePosition {
        PagePosition(order: .distance, value: meters, id: id)
    }

    /// The position of an item posted at `postedAt`, for newest-first lists.
    public static func recent(_ postedAt: Date, id: UUID) -> PagePosition {
        PagePosition(order: .recent, value: postedAt.timeIntervalSince1970, id: id)
    }

    init(order: ResultOrder, value: Double, id: UUID) {
        self.order = order
        self.value = value
        self.id = id
    }

    /// Whether this position comes strictly before `other` in their order: by value (smaller
    /// distance, or later time), then by id. Ids compare by their 16 bytes, which is also the
    /// order of their lowercase text, as SQLite sorts it. Positions in different orders never
    /// precede one another.
    public func precedes(_ other: PagePosition) -> Bool {
        guard order == other.order else { return false }
        if value != other.value {
            return order == .distance ? value < other.value : value > other.value
        }
        return id.bytes.lexicographicallyPrecedes(other.id.bytes)
    }
}
