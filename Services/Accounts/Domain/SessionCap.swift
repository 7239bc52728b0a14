import Foundation

/// At most ``limit`` live sessions per account: a session that starts beyond it ends the
/// oldest, as a well-run service bounds what one account can hold open (every sign-in is
/// a session every service tracks until it ends).
public struct SessionCap: Sendable, Equatable {
    /// Live sessions an account may have, the one starting included.
    public let limit: Int

    public init(limit: Int) {
        precondition(limit >= 1, "an account needs room for the session that starts")
        self.limit = limit
    }

    /// The sessions to end as `starting` begins: of the others in `live`, oldest first (in
    /// the order they started in the log: start times tie within a second), all but the
    /// newest `limit - 1`.
    public func toEnd(live: [UUID], starting: UUID) -> [UUID] {
        let others = live.filter { $0 != starting }
        return Array(others.dropLast(limit - 1))
    }
}
