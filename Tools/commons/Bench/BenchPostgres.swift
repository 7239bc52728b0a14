import EventLog
import EventLogLibPQ
import EventLogPostgres
import Foundation
import Logging
import NIOCore
import PostgresNIO

/// The PostgreSQL cases: the event store, on PostgresNIO and on libpq (one log, two stores),
/// against plain statements sent through a `PostgresClient` configured as the store's, into a
/// copy of its table in the same schema.
struct PostgresBench: Sendable {
    let store: PostgresEventStore
    /// The same log through libpq (issue 58), measured beside ``store`` in every case.
    let libpq: LibPQEventStore
    /// The plain client, for ceilings and bookkeeping.
    let client: PostgresClient
    let schema: String
    let duration: Duration
    /// The driver's best, beside each append case.
    let driver: DriverInsert
    /// How many events the read-all case reads before starting again (``defaultReadWindow``
    /// unless `--read-window` says otherwise).
    let readWindow: Int

    /// Every column of the log, as stored.
    static let columns = "e.position, e.transaction_id, e.stream, e.version, e.id, e.type, e.schema_version, e.data, e.metadata, e.recorded_at"

    /// Opens the store (which creates `configuration.schema`) and a plain client, runs
    /// `body`, then drops the schema and closes both, whether `body` succeeded or not.
    static func run<Result>(
        configuration: PostgresEventStoreConfiguration, duration: Duration, readWindow: Int = defaultReadWindow,
        _ body: (PostgresBench) async throws -> Result
    ) async throws -> Result {
        var logger = Logger(label: "commons.bench")
        logger.logLevel = .warning
        var storeLogger = Logger(label: "commons.eventlog.postgres")
        storeLogger.logLevel = .warning
        let client = PostgresClient(configuration: configuration.clientConfiguration, backgroundLogger: logger)
        let clientTask = Task { await client.run() }
        defer { clientTask.cancel() }
        let store = try await PostgresEventStore(configuration: configuration, logger: storeLogger)
        let libpq: LibPQEventStore
        do {
            libpq = try await LibPQEventStore(configuration: configuration, logger: storeLogger)
        } catch {
            await store.shutdown()
            throw error
        }
        let bench = PostgresBench(
            store: store, libpq: libpq, client: client, schema: configuration.schema, duration: duration,
            driver: DriverInsert(configuration: try configuration.connection(searchPath: true)), readWindow: readWindow)
        let result: Result
        do {
            result = try await body(bench)
        } catch {
            await bench.close()
            throw error
        }
        await bench.close()
        return result
    }

    private func close() async {
        await store.shutdown()
        await libpq.shutdown()
        do {
            try await client.query(PostgresQuery(unsafeSQL: "DROP SCHEMA \(schema) CASCADE"))
        } catch {
            Bench.note("could not drop schema \(schema): \(String(reflecting: error))")
        }
    }

    func serverVersion() async throws -> String {
        for try await version in try await client.query("SHOW server_version").decode(String.self) { return version }
        return "?"
    }

    /// Cases 1 to 5: appends by writers and batch size, then reading the whole log. Each
    /// append case runs Commons on PostgresNIO, Commons on libpq, then pgbench (the ceiling
    /// their ratios are taken against), then the same rows through PostgresNIO without the
    /// log, prepared, a connection per writer (``DriverInsert``: how much of the gap is the
    /// driver's and the runtime's).
    func cases(pgbench: Pgbench, rounds: Int = 1, groups: BenchEventLogCases = .all) async throws -> [BenchRow] {
        try await client.query(PostgresQuery(unsafeSQL: "CREATE TABLE \(schema).ceiling (LIKE \(schema).events INCLUDING ALL)"))
        try await client.query(PostgresQuery(unsafeSQL: "CREATE TABLE \(schema).pgbench_events (LIKE \(schema).events INCLUDING ALL)"))
        var rows: [BenchRow] = []
        let postmaster = try await localPostmaster()
        // The goals of issue 17, as ratios to pgbench in the same run.
        let shapes: [(writers: Int, batch: Int, aim: BenchRow.Aim)] = [
            (1, 1, .ratio(0.8)), (8, 1, .ratio(0.8)), (1, 100, .none), (8, 100, .ratio(0.9)),
        ]
        for (writers, batch, aim) in shapes where groups.contains(.append) {
            let name = "append, \(writers) writer\(writers > 1 ? "s" : ""), \(batch) event\(batch > 1 ? "s" : "") per append"
            Bench.note(name)
            let tag = "w\(writers)b\(batch)"
            let (oursCPU, libpqCPU, pgbenchCPU, driverCPU) = (
                CPUTally(postmaster: postmaster), CPUTally(postmaster: postmaster), CPUTally(postmaster: postmaster),
                CPUTally(postmaster: postmaster)
            )
            // Each round appends to streams of its own: a stream's versions start where the
            // cursor does, at 0.
            let groupsBefore = (store.appendGroups, libpq.appendGroups)
            let sides = [(store as any EventStore, oursCPU, "nio"), (libpq, libpqCPU, "pq")].map { side, tally, label in
                { (round: Int) async throws -> Double in
                    try await tally.measure {
                        try await Bench.measureCounting(
                            workers: writers, for: duration, Self.appendSteps(side, tag: "\(tag)\(label)r\(round)", batch: batch))
                    }
                }
            }
            let measuredRows = try await BenchRow.interleaved(
                [name + ", PostgresNIO", name + ", libpq"], rounds: rounds, aim: aim, sides: sides
            ) { _ in
                try await pgbenchCPU.measure { try await pgbench.insertRate(clients: writers, batch: batch) }
            }
            var (row, libpqRow) = (measuredRows[0], measuredRows[1])
            if batch == 1 {
                // Grouping is what lets single-event appends share a round trip and a commit.
                for (label, before, after, tally) in [
                    ("PostgresNIO", groupsBefore.0, store.appendGroups, oursCPU), ("libpq", groupsBefore.1, libpq.appendGroups, libpqCPU),
                ] {
                    Bench.note(
                        "\(name), \(label): \(after.appends - before.appends) of \(tally.events) appends went in "
                            + "\(after.statements - before.statements) group statements")
                }
            }
            let opened = try await driver.open(writers: writers)
            let measured: Double
            do {
                measured = try await driverCPU.measure {
                    try await Bench.measureCounting(workers: writers, for: duration, driver.steps(tag: tag, batch: batch, opened: opened))
                }
            } catch {
                await opened.closeAll()
                throw error
            }
            await opened.closeAll()
            var driverRow = BenchRow(name: "the same INSERT through PostgresNIO, prepared, a connection each", ours: measured, ceiling: row.ceiling)
            if let ours = oursCPU.perEvent, let ceiling = pgbenchCPU.perEvent, let driven = driverCPU.perEvent,
                let viaLibPQ = libpqCPU.perEvent
            {
                row.cpu = (ours, ceiling)
                libpqRow.cpu = (viaLibPQ, ceiling)
                driverRow.cpu = (driven, ceiling)
            }
            rows += [row, libpqRow, driverRow]
        }
        guard groups.contains(.readAll) else { return rows }
        try await topUp(to: readWindow)
        // Settled first: the first pass over freshly written rows sets their hint bits (and
        // writes those pages), which would fall on whichever side ran first.
        try await client.query(PostgresQuery(unsafeSQL: "VACUUM (ANALYZE) \(schema).events"))
        try await waitUntilReadable()
        Bench.note("read-all")
        let connection = try await PostgresConnection.connect(configuration: driver.configuration, id: 0, logger: Self.logger)
        // What an event read costs each side, as for the appends: it moves less than the rates
        // between runs, and shows which side a gap to the SELECT is on.
        let (oursCPU, libpqCPU, selectCPU) = (CPUTally(postmaster: postmaster), CPUTally(postmaster: postmaster), CPUTally(postmaster: postmaster))
        do {
            let name = "read-all, pages of 1000 (the first \(readWindow) of \(try await count()) events), vs one binary SELECT"
            let sides = [(store as any EventStore, oursCPU), (libpq, libpqCPU)].map { side, tally in
                { (_: Int) async throws -> Double in try await tally.measure { try await Bench.measureCounting(for: duration, readAllSteps(side)) } }
            }
            var read = try await BenchRow.interleaved([name + ", PostgresNIO", name + ", libpq"], rounds: rounds, aim: .ratio(0.9), sides: sides) {
                _ in
                try await selectCPU.measure { try await Bench.measureCounting(for: duration, selectSteps(on: connection)) }
            }
            for (index, tally) in [oursCPU, libpqCPU].enumerated() {
                if let ours = tally.perEvent, let ceiling = selectCPU.perEvent { read[index].cpu = (ours, ceiling) }
            }
            rows += read
        } catch {
            try? await connection.close()
            throw error
        }
        try? await connection.close()
        return rows
    }

    // MARK: Appending

    private static func appendSteps(_ store: any EventStore, tag: String, batch: Int) -> @Sendable (Int) -> BenchStep {
        { worker in
            var cursor = BenchStreamCursor("\(BenchEvent.category)-\(tag).\(worker).")
            return {
                let (stream, version) = cursor.advance(by: batch)
                _ = try await store.append(to: stream, expected: .exact(version), events: BenchEvent.batch(batch))
                return batch
            }
        }
    }

    /// Appends 100-event batches from 8 writers until the log holds `minimum` events.
    private func topUp(to minimum: Int) async throws {
        let batches = (minimum - (try await count()) + 99) / 100
        guard batches > 0 else { return }
        Bench.note("topping the log up with \(batches * 100) events")
        let progress = ProgressReport("bench")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask { [store] in
                    var cursor = BenchStreamCursor("\(BenchEvent.category)-fill.\(worker).")
                    for _ in stride(from: worker, to: batches, by: 8) {
                        let (stream, version) = cursor.advance(by: 100)
                        _ = try await store.append(to: stream, expected: .exact(version), events: BenchEvent.batch(100))
                        progress.advance(by: 100, of: batches * 100)
                    }
                }
            }
            try await group.waitForAll()
        }
        progress.finish(done: progress.done)
    }

    /// Waits (up to 60 s) until a reader of the log sees the events the read-all case pages
    /// through: a transaction open elsewhere on the cluster holds PostgreSQL's visibility
    /// horizon back, and a window read before it moves reads nothing (a rate of 0).
    private func waitUntilReadable() async throws {
        let wanted = min(readWindow, try await count())
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            var (seen, checkpoint) = (0, Checkpoint.start)
            while seen < wanted {
                let page = try await store.readAll(after: checkpoint, limit: 1000, filter: .all)
                guard !page.events.isEmpty else { break }
                (seen, checkpoint) = (seen + page.events.count, page.checkpoint)
            }
            if seen >= wanted { return }
            guard ContinuousClock.now < deadline else {
                throw CommandFailure(
                    "readers still see \(seen) of the \(wanted) events written after 60 s: a transaction open elsewhere holds PostgreSQL's visibility horizon back"
                )
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// The cluster's postmaster when it runs on this machine (``PostgresCluster/postmaster(_:)``).
    private func localPostmaster() async throws -> pid_t? {
        let connection = try await PostgresConnection.connect(configuration: driver.configuration, id: 0, logger: Self.logger)
        let postmaster = await PostgresCluster.postmaster(connection)
        try? await connection.close()
        if postmaster == nil { Bench.note("PostgreSQL does not run on this machine: CPU per event counts the client alone") }
        return postmaster
    }

    private func count() async throws -> Int {
        for try await count in try await client.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(schema).events")).decode(Int.self) {
            return count
        }
        return 0
    }

    // MARK: Reading

    /// How many events each side reads before starting again, by default: the append cases can
    /// leave a million, and one `SELECT` of them all outlasted the measurement (it counted 0).
    /// The CLI's test reads fewer: a debug build's top-up to this many took past two minutes
    /// on a slow day.
    static let defaultReadWindow = 200_000

    /// Pages through the first ``readWindow`` events of the log with `store`, then from the start again.
    private func readAllSteps(_ store: any EventStore) -> @Sendable (Int) -> BenchStep {
        { [readWindow] _ in
            var checkpoint = Checkpoint.start
            var read = 0
            return {
                let page = try await store.readAll(after: checkpoint, limit: 1000, filter: .all)
                read += page.events.count
                let restart = page.events.count < 1000 || read >= readWindow
                checkpoint = restart ? .start : page.checkpoint
                if restart { read = 0 }
                return page.events.count
            }
        }
    }

    /// The ceiling of reading: one `SELECT` of as many rows in PostgreSQL's binary format on a
    /// connection of its own, each row's columns decoded as it arrives on the connection's
    /// event loop (PostgresNIO's fastest form: its async row sequence reads the same rows at
    /// about 0.7 of this pace), the JSON and the transaction id as bytes.
    private func selectSteps(on connection: PostgresConnection) -> @Sendable (Int) -> BenchStep {
        { [schema, readWindow] _ in
            {
                // Counted on the loop without a lock, as the store collects its rows.
                let count = NIOLoopBoundBox.makeBoxSendingValue(0, eventLoop: connection.eventLoop)
                let query = PostgresQuery(unsafeSQL: "SELECT \(Self.columns) FROM \(schema).events e LIMIT \(readWindow)")
                return try await connection.query(query, logger: Self.logger) { row in
                    _ = try row.decode((Int64, ByteBuffer, String, Int64, UUID, String, Int32, ByteBuffer, ByteBuffer, Date).self)
                    count.value += 1
                }.map { _ in count.value }.get()
            }
        }
    }

    private static let logger = Logger(label: "commons.bench.postgres")
}

extension BenchRow {
    /// Whether this is the read-all case, whose ceiling is a `SELECT` rather than pgbench.
    var isRead: Bool { name.hasPrefix("read-all") }
}
