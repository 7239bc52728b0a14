/// Whether a donation shows its donor among the organisation's supporters. A newer server
/// may answer with a value this SDK does not know; it decodes too (see ``OpenEnum``).
public struct DonorVisibility: OpenEnum {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The donor's public name is shown with the gift.
    public static let `public`: Self = "public"
    /// The gift counts; who gave it is not shown.
    public static let anonymous: Self = "anonymous"

    public static let known: [Self] = [.public, .anonymous]
}
