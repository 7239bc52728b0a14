import EventLog
import EventLogPostgres
import Foundation

extension LibPQEventStore {
    public func append(to stream: String, expected: ExpectedVersion, events: [NewEvent]) async throws -> AppendResult {
        guard let name = StreamName(stream) else { throw EventStoreError.invalidStreamName(stream) }
        if events.isEmpty { return try await appendNothing(to: stream, expected: expected) }
        let encoded = try EncodedBatch(events)
        let expectedCode = expected.statementCode
        let alone = { try await self.appendAlone(name, expected: expected, expectedCode: expectedCode, encoded: encoded) }
        guard encoded.ids.count == 1 else { return try await alone() }
        let grouped = GroupedAppend(stream: name.description, category: name.category, expectedCode: expectedCode, batch: encoded)
        return try await grouper.append(grouped, alone: alone) { row in
            guard let result = Self.appendResult([row], alreadyAppended: false) else { return nil }
            appended(to: name)
            return result
        }
    }

    /// Wakes this process's subscribers and tells the others, unless the append's own
    /// statement `notified` them.
    private func appended(to name: StreamName, notified: Bool = false) {
        if !notified { notifier.notify(category: name.category) }
        changes.fire(categories: CollectionOfOne(name.category))
    }

    /// One append in its own statement, with every answer a failure can have: the same
    /// answers, in the same order, as ``PostgresEventStore``'s.
    private func appendAlone(
        _ name: StreamName, expected: ExpectedVersion, expectedCode: Int64, encoded: EncodedBatch
    ) async throws
        -> AppendResult
    {
        let stream = name.description
        var carried = encoded.ids.count == 1 && grouper.isOnlyAppend ? notifier.carry(category: name.category) : nil
        for _ in 0..<100 {
            let carrying = carried
            carried = nil
            var delivered = false
            defer { if let carrying, !delivered { notifier.carryFailed(carrying) } }
            do {
                let rows = try await pool.execute(
                    Self.statement(count: encoded.ids.count, expectedCode: expectedCode, notifying: carrying != nil),
                    Self.parameters(name, expectedCode: expectedCode, batch: encoded, carrying: carrying), decode: Self.appendRows)
                guard let result = Self.appendResult(rows, alreadyAppended: false) else {
                    if let replay = try await replayedResult(stream: stream, batch: encoded) { return replay }
                    throw EventStoreError.wrongExpectedVersion(stream: stream, expected: expected, actual: try await version(of: stream))
                }
                delivered = true
                appended(to: name, notified: carrying != nil)
                return result
            } catch let error as LibPQError {
                if error.sqlState == "CE001" || error.sqlState == "23505", let replay = try await replayedResult(stream: stream, batch: encoded) {
                    return replay
                }
                switch (error.sqlState, error.constraint) {
                case ("CE001", _):
                    throw EventStoreError.wrongExpectedVersion(stream: stream, expected: expected, actual: Int64(error.detail ?? "") ?? 0)
                case ("23505", "events_stream_version"):
                    if case .any = expected { continue }
                    if case .streamExists = expected { continue }
                    throw EventStoreError.wrongExpectedVersion(stream: stream, expected: expected, actual: try await version(of: stream))
                case ("23505", "events_id"):
                    throw EventStoreError.idempotencyConflict(
                        stream: stream, eventId: encoded.ids[0], reason: "an event id is stored already in another stream")
                case ("22P02", _), ("22021", _), ("22P05", _):
                    // Not JSON, not UTF-8, or a character PostgreSQL cannot store (\u0000).
                    throw EventStoreError.invalidEvent(id: encoded.ids[0], reason: error.message)
                default:
                    throw error
                }
            }
        }
        throw EventStoreError.wrongExpectedVersion(stream: stream, expected: expected, actual: try await version(of: stream))
    }

    /// The statement of an append of `count` events at `expectedCode`.
    private static func statement(count: Int, expectedCode: Int64, notifying: Bool) -> PreparedSQL {
        switch (count, expectedCode, notifying) {
        case (1, 0, false): LibPQStatements.appendFirst
        case (1, 0, true): LibPQStatements.appendFirstNotifying
        case (1, _, false): LibPQStatements.appendOne
        case (1, _, true): LibPQStatements.appendOneNotifying
        default: LibPQStatements.appendBatch
        }
    }

    /// The parameters of ``statement(count:expectedCode:notifying:)``.
    private static func parameters(
        _ name: StreamName, expectedCode: Int64, batch: EncodedBatch, carrying: AppendNotifier.Notification?
    ) -> [LibPQParameter] {
        guard batch.ids.count == 1 else {
            return [.text(name.description), .text(name.category), .integer(expectedCode)] + columns(batch)
        }
        var parameters: [LibPQParameter] = [
            .text(name.description), .text(name.category), .uuid(batch.ids[0]), .text(batch.types[0]), .integer(batch.schemaVersions[0]),
            .jsonb(batch.data[0].text), .jsonb(batch.metadata[0].text),
        ]
        if expectedCode != 0 { parameters.append(.integer(expectedCode)) }
        if let carrying { parameters += [.array(carrying.channels), .text(carrying.payload)] }
        return parameters
    }

    /// A batch's events as the array parameters of the batch and group statements: ids,
    /// types, schema versions, bodies, metadata.
    static func columns(_ batch: EncodedBatch) -> [LibPQParameter] {
        [
            .array(batch.ids.map(\.uuidString)), .array(batch.types), .array(batch.schemaVersions.map(String.init)),
            .jsonArray(batch.data.map(\.text)), .jsonArray(batch.metadata.map(\.text)),
        ]
    }

    /// The group statement's parameters: streams, categories, expectations, then the events.
    static func groupParameters(_ appends: [GroupedAppend]) -> [LibPQParameter] {
        var batch = appends[0].batch
        for append in appends.dropFirst() {
            batch.ids += append.batch.ids
            batch.types += append.batch.types
            batch.schemaVersions += append.batch.schemaVersions
            batch.data += append.batch.data
            batch.metadata += append.batch.metadata
        }
        return [.array(appends.map(\.stream)), .array(appends.map(\.category)), .array(appends.map { String($0.expectedCode) })]
            + columns(batch)
    }

    /// The rows of an append statement: version, position, transaction id, each null when
    /// nothing was appended.
    @Sendable static func appendRows(_ result: LibPQResult) throws -> [AppendRow] {
        try (0..<result.rows).map { row in
            (try result.integer(row, 0, as: Int64.self), try result.integer(row, 1, as: Int64.self), try result.integer(row, 2, as: UInt64.self))
        }
    }

    /// The result in an append statement's first row; nil when nothing was appended.
    static func appendResult(_ rows: [AppendRow], alreadyAppended: Bool) -> AppendResult? {
        guard let (version, position, transaction) = rows.first, let version, let position, let transaction else { return nil }
        return AppendResult(
            streamVersion: version, checkpoint: Checkpoint(transaction: transaction, position: position), wasAlreadyAppended: alreadyAppended)
    }

    /// The first result when this batch is stored already; nil when none of it is; throws
    /// when only part of it is, or it is stored differently.
    private func replayedResult(stream: String, batch: EncodedBatch) async throws -> AppendResult? {
        let parameters: [LibPQParameter] =
            [
                .text(stream), .array(batch.ids.map(\.uuidString)), .array(batch.types), .array(batch.schemaVersions.map(String.init)),
                .jsonArray(batch.data.map(\.text)),
            ]
        do {
            let row = try await pool.execute(LibPQStatements.replayed, parameters) { result -> AppendRow? in
                guard result.rows > 0 else { return nil }
                return (try result.integer(0, 0, as: Int64.self), try result.integer(0, 1, as: Int64.self), result.text(0, 2).flatMap { UInt64($0) })
            }
            return row.flatMap { Self.appendResult([$0], alreadyAppended: true) }
        } catch let error as LibPQError where error.sqlState == "CE002" {
            throw EventStoreError.idempotencyConflict(
                stream: stream, eventId: batch.ids.first ?? UUID(), reason: error.detail ?? "ids already stored")
        }
    }
}
