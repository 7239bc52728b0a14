/// What happened to a listing, in the listings' change feed (``ListingChangeEntry``). A newer
/// server may answer with a kind this SDK does not know; it decodes too (see ``OpenEnum``).
public struct ListingChangeKind: OpenEnum {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public static let created: Self = "created"
    public static let edited: Self = "edited"
    public static let statusChanged: Self = "statusChanged"
    public static let withdrawn: Self = "withdrawn"
    /// Its owner's account was deleted.
    public static let removed: Self = "removed"

    public static let known: [Self] = [.created, .edited, .statusChanged, .withdrawn, .removed]
}
