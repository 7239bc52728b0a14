/// Which events a global read or a subscription wants. An empty filter matches everything.
public struct EventFilter: Hashable, Sendable {
    /// Stream categories to include; nil for all.
    public var categories: Set<String>?
    /// Event types to include; nil for all.
    public var types: Set<String>?

    public init(categories: Set<String>? = nil, types: Set<String>? = nil) {
        self.categories = categories
        self.types = types
    }

    public static let all = EventFilter()

    public static func categories(_ categories: String...) -> EventFilter {
        EventFilter(categories: Set(categories))
    }

    public var isEmpty: Bool { categories == nil && types == nil }

    public func matches(category: String, type: String) -> Bool {
        (categories?.contains(category) ?? true) && (types?.contains(type) ?? true)
    }
}
