import Foundation

/// When an item can be picked up.
public struct PickupTimes: Codable, Sendable, Hashable {
    public var note: String?
    public var windows: [PickupWindow]

    public init(note: String? = nil, windows: [PickupWindow] = []) {
        self.note = note
        self.windows = windows
    }
}

/// One pickup time window.
public struct PickupWindow: Codable, Sendable, Hashable {
    public var startsAt: Date
    public var endsAt: Date

    public init(startsAt: Date, endsAt: Date) {
        self.startsAt = startsAt
        self.endsAt = endsAt
    }
}
