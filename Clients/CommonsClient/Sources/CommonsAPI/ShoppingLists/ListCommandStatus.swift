/// How one command of an offline batch went (``ListCommandResults/Result``). A newer server
/// may answer with a status this SDK does not know; it decodes too (see ``OpenEnum``).
public struct ListCommandStatus: OpenEnum {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The command took effect, now or (with `replayed`) by an earlier delivery of it.
    public static let applied: Self = "applied"
    /// The command was refused; the result's `problem` says why.
    public static let rejected: Self = "rejected"

    public static let known: [Self] = [.applied, .rejected]
}
