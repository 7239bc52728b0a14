/// What an appender believes about a stream before it appends.
public enum ExpectedVersion: Hashable, Sendable, CustomStringConvertible {
    /// Append whatever the stream's state.
    case any
    /// The stream must not exist yet (used for reservations such as a unique email).
    case noStream
    /// The stream must have at least one event.
    case streamExists
    /// The stream's last event must have exactly this version (0 means no stream).
    case exact(Int64)

    /// Whether a stream whose last version is `actual` (0: no stream) satisfies this expectation.
    public func isSatisfied(by actual: Int64) -> Bool {
        switch self {
        case .any: true
        case .noStream: actual == 0
        case .streamExists: actual > 0
        case .exact(let version): actual == version
        }
    }

    public var description: String {
        switch self {
        case .any: "any"
        case .noStream: "no stream"
        case .streamExists: "stream exists"
        case .exact(let version): "version \(version)"
        }
    }
}
