import EventLog
import EventLogPostgres
import Foundation

extension LibPQEventStore {
    public func append(to stream: String, expected: ExpectedVersion, events: [NewEvent]) async throws -> AppendResult {
        try await appendEvents(to: stream, expected: expected, events: events)
    }

    package func executeAppend(
        _ name: StreamName, expectedCode: Int64, batch: EncodedBatch, carrying: AppendNotifier.Notification?
    ) async throws -> [AppendRow] {
        do {
            return try await pool.execute(
                Self.statement(count: batch.ids.count, expectedCode: expectedCode, notifying: carrying != nil),
                Self.parameters(name, expectedCode: expectedCode, batch: batch, carrying: carrying), decode: Self.appendRows)
        } catch let error as LibPQError where error.sqlState != nil {
            throw AppendStatementFailure(
                sqlState: error.sqlState, constraint: error.constraint, detail: error.detail, message: error.message, reported: error)
        }
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
            .uuidArray(batch.ids), .array(batch.types), .int4Array(batch.schemaVersions),
            .jsonbArray(batch.data.map(\.text)), .jsonbArray(batch.metadata.map(\.text)),
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
        return [.array(appends.map(\.stream)), .array(appends.map(\.category)), .int8Array(appends.map(\.expectedCode))]
            + columns(batch)
    }

    /// The rows of an append statement: version, position, transaction id, each null when
    /// nothing was appended.
    @Sendable static func appendRows(_ result: LibPQResult) throws -> [AppendRow] {
        try (0..<result.rows).map { row in
            (try result.integer(row, 0, as: Int64.self), try result.integer(row, 1, as: Int64.self), try result.integer(row, 2, as: UInt64.self))
        }
    }

    /// The first result when this batch is stored already; nil when none of it is; throws
    /// when only part of it is, or it is stored differently.
    package func replayedResult(stream: String, batch: EncodedBatch) async throws -> AppendResult? {
        let parameters: [LibPQParameter] =
            [
                .text(stream), .uuidArray(batch.ids), .array(batch.types), .int4Array(batch.schemaVersions),
                .jsonbArray(batch.data.map(\.text)),
            ]
        do {
            let row = try await pool.execute(LibPQStatements.replayed, parameters) { result -> AppendRow? in
                guard result.rows > 0 else { return nil }
                return (try result.integer(0, 0, as: Int64.self), try result.integer(0, 1, as: Int64.self), result.text(0, 2).flatMap { UInt64($0) })
            }
            return AppendResult(row: row, alreadyAppended: true)
        } catch let error as LibPQError where error.sqlState == "CE002" {
            throw EventStoreError.idempotencyConflict(
                stream: stream, eventId: batch.ids.first ?? UUID(), reason: error.detail ?? "ids already stored")
        }
    }
}
