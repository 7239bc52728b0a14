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

/// A PostgreSQL store's appends, whichever driver sends the statements: the store runs an
/// append statement and asks whether a batch is stored already; the rest (names, grouping,
/// the failures' answers, notifications) is this one piece of code.
package protocol PostgresAppending: EventStore {
    var grouper: AppendGrouper { get }
    var notifier: AppendNotifier { get }

    /// Runs the append statement for `batch` (the single-event ones when it holds one, with
    /// the notification it carries if given); throws ``AppendStatementFailure`` for what the
    /// server refused.
    func executeAppend(
        _ name: StreamName, expectedCode: Int64, batch: EncodedBatch, carrying: AppendNotifier.Notification?
    ) async throws
        -> [AppendRow]

    /// The first result when this batch is stored already; nil when none of it is; throws
    /// when only part of it is, or it is stored differently.
    func replayedResult(stream: String, batch: EncodedBatch) async throws -> AppendResult?
}

extension PostgresAppending {
    /// ``EventStore/append(to:expected:events:)``: checks the stream's name, answers an
    /// append of nothing, sends a single event through the ``grouper``, and makes the rest,
    /// and what the group did not make, in statements of their own (``appendAlone(_:expected:batch:)``).
    package func appendEvents(to stream: String, expected: ExpectedVersion, events: [NewEvent]) async throws -> AppendResult {
        guard let name = StreamName(stream) else { throw EventStoreError.invalidStreamName(stream) }
        if events.isEmpty { return try await appendNothing(to: stream, expected: expected) }
        let encoded = try EncodedBatch(events)
        guard encoded.ids.count == 1 else { return try await appendAlone(name, expected: expected, batch: encoded) }
        let grouped = GroupedAppend(stream: name.description, category: name.category, expectedCode: expected.statementCode, batch: encoded)
        return try await grouper.append(grouped) {
            try await appendAlone(name, expected: expected, batch: encoded)
        } accepted: { row in
            guard let result = AppendResult(row: row, alreadyAppended: false) else { return nil }
            appended(to: name)
            return result
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
