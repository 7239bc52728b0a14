/// Where a listing is in its life. Searches find only `available` and `promised` ones;
/// `withdrawn` and `hidden` ones only their owner sees.
public struct ListingStatus: OpenEnum {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Open to requests.
    public static let available: Self = "available"
    /// Its owner promised it to one requester.
    public static let promised: Self = "promised"
    /// Handed over, free.
    public static let given: Self = "given"
    /// Handed over, for its price.
    public static let sold: Self = "sold"
    /// Taken down by its owner.
    public static let withdrawn: Self = "withdrawn"
    /// Past its end date without being renewed.
    public static let expired: Self = "expired"
    /// Removed by a moderator.
    public static let hidden: Self = "hidden"

    public static let known: [Self] = [.available, .promised, .given, .sold, .withdrawn, .expired, .hidden]
}
