/// A command whose stream kept moving under it: every attempt met a change made meanwhile.
/// A 409 the client can retry.
public struct WriteConflict: ProblemConvertible, Equatable {
    /// The stream that kept moving.
    public let stream: String

    public init(stream: String) {
        self.stream = stream
    }

    public var problem: Problem {
        .conflict("Someone else changed this at the same time; try again.", type: "concurrent-change")
    }
}

/// A command sent with `If-Match` on a stream that is at another version: a 412 that names
/// the current version, so the client can read again and decide.
public struct StaleVersion: ProblemConvertible, Equatable {
    /// The stream's version now; -1 when the store did not say.
    public let current: Int64

    public init(current: Int64) {
        self.current = current
    }

    public var problem: Problem { .preconditionFailed(currentVersion: current) }
}
