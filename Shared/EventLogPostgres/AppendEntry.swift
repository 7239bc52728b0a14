import EventLog

// What every PostgreSQL store's `append` does before its statements, one code for both drivers.

extension ExpectedVersion {
    /// The expectation as the append statements take it: -1 any, -2 the stream exists,
    /// otherwise the version (0: no stream).
    package var statementCode: Int64 {
        switch self {
        case .any: -1
        case .streamExists: -2
        case .noStream: 0
        case .exact(let version): version
        }
    }
}

extension EventStore {
    /// An append of no events: the stream's version and the head when `expected` holds.
    package func appendNothing(to stream: String, expected: ExpectedVersion) async throws -> AppendResult {
        let actual = try await version(of: stream)
        guard expected.isSatisfied(by: actual) else {
            throw EventStoreError.wrongExpectedVersion(stream: stream, expected: expected, actual: actual)
        }
        return AppendResult(streamVersion: actual, checkpoint: try await head(), wasAlreadyAppended: false)
    }
}

extension AppendGrouper {
    /// Appends one event through the grouper: `alone` in a slot when one is free; else in the
    /// group it joins, whose row `accepted` makes a result of (nil: the group did not append
    /// it); else `alone` after all.
    package func append(
        _ append: GroupedAppend, alone: () async throws -> AppendResult, accepted: (AppendRow) -> AppendResult?
    ) async throws -> AppendResult {
        switch await admit(append) {
        case .slot:
            defer { release() }
            return try await alone()
        case .appended(let row):
            if let result = accepted(row) { return result }
        case .alone:
            break
        }
        return try await alone()
    }
}
