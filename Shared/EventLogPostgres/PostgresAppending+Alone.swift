import EventLog
import Foundation

/// What a failed append statement said, in either driver's words: its SQL state, the
/// constraint it violated, the detail and message lines, and the driver's own error.
package struct AppendStatementFailure: Error {
    package var sqlState: String?
    package var constraint: String?
    package var detail: String?
    package var message: String?
    /// What the store throws when the failure is none the log answers in its own terms.
    package var reported: any Error

    package init(sqlState: String?, constraint: String?, detail: String?, message: String?, reported: any Error) {
        self.sqlState = sqlState
        self.constraint = constraint
        self.detail = detail
        self.message = message
        self.reported = reported
    }
}

extension PostgresAppending {
    /// One append in its own statement, with every answer a failure can have.
    ///
    /// Concurrent appenders to one stream meet on its (stream, version) key. With an exact
    /// expectation that is a lost race; with `.any` or `.streamExists` it tries again. Every
    /// failure first asks whether the batch is stored already (a client retry). A single
    /// event's first attempt carries the paced notification when one is due and it is the
    /// only append this process is making; an attempt that does not append hands it back, to
    /// be sent on its own. (Among others, a carrier holding PostgreSQL's notify lock through
    /// its flush makes their notifications wait: groups that carried it cost eight writers a
    /// sixth or more of their pace against pgbench in `bench eventlog`.)
    func appendAlone(_ name: StreamName, expected: ExpectedVersion, batch: EncodedBatch) async throws -> AppendResult {
        let stream = name.description
        var carried = batch.ids.count == 1 && grouper.isOnlyAppend ? notifier.carry(category: name.category) : nil
        for _ in 0..<100 {
            let carrying = carried
            carried = nil
            var delivered = false
            defer { if let carrying, !delivered { notifier.carryFailed(carrying) } }
            do {
                let rows = try await executeAppend(name, expectedCode: expected.statementCode, batch: batch, carrying: carrying)
                guard let result = AppendResult(row: rows.first, alreadyAppended: false) else {
                    if let replay = try await replayedResult(stream: stream, batch: batch) { return replay }
                    throw EventStoreError.wrongExpectedVersion(stream: stream, expected: expected, actual: try await version(of: stream))
                }
                delivered = true
                appended(to: name, notified: carrying != nil)
                return result
            } catch let failure as AppendStatementFailure {
                if failure.sqlState == "CE001" || failure.sqlState == "23505", let replay = try await replayedResult(stream: stream, batch: batch) {
                    return replay
                }
                switch (failure.sqlState, failure.constraint) {
                case ("CE001", _):
                    throw EventStoreError.wrongExpectedVersion(stream: stream, expected: expected, actual: Int64(failure.detail ?? "") ?? 0)
                case ("23505", "events_stream_version"):
                    if case .any = expected { continue }
                    if case .streamExists = expected { continue }
                    throw EventStoreError.wrongExpectedVersion(stream: stream, expected: expected, actual: try await version(of: stream))
                case ("23505", "events_id"):
                    throw EventStoreError.idempotencyConflict(
                        stream: stream, eventId: batch.ids[0], reason: "an event id is stored already in another stream")
                case ("22P02", _), ("22021", _), ("22P05", _):
                    // Not JSON, not UTF-8, or a character PostgreSQL cannot store (\u0000).
                    throw EventStoreError.invalidEvent(id: batch.ids[0], reason: failure.message ?? "invalid JSON")
                default:
                    throw failure.reported
                }
            }
        }
        throw EventStoreError.wrongExpectedVersion(stream: stream, expected: expected, actual: try await version(of: stream))
    }

    /// Wakes this process's subscribers and tells the others, unless the append's own
    /// statement `notified` them.
    func appended(to name: StreamName, notified: Bool = false) {
        if !notified { notifier.notify(category: name.category) }
        changes.fire(categories: CollectionOfOne(name.category))
    }
}

extension AppendResult {
    /// The result in an append statement's row; nil when nothing was appended (no row, or nulls).
    package init?(row: AppendRow?, alreadyAppended: Bool) {
        guard let (version, position, transaction) = row, let version, let position, let transaction else { return nil }
        self.init(streamVersion: version, checkpoint: Checkpoint(transaction: transaction, position: position), wasAlreadyAppended: alreadyAppended)
    }
}
