import EventLogPostgres
import Foundation
import Spawn

/// pgbench, PostgreSQL's own load generator in C, run by `commons bench eventlog` against
/// the cluster and schema it measures Commons on: the rate PostgreSQL accepts the same rows
/// at from a client that costs next to nothing, with every statement prepared once per
/// connection (`-M prepared`). Each client inserts into a table `LIKE events INCLUDING ALL`,
/// a new stream per transaction; the event body and metadata are bound as parameters, as a
/// driver sends them.
struct Pgbench: Sendable {
    /// The pgbench executable (`/usr/bin/pgbench` from PostgreSQL's client package).
    var executable: String
    let configuration: PostgresEventStoreConfiguration
    /// The schema-qualified table the rows go into.
    let table: String
    let duration: Duration

    /// Events per second with `clients` connections, each committing one `INSERT` of `batch`
    /// rows per transaction, and every event pgbench inserted. Throws if pgbench fails or a
    /// transaction of it does.
    func insertRate(clients: Int, batch: Int) async throws -> (rate: Double, events: Int) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pgbench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("insert.sql")
        try Data(Self.insertScript(table: table, batch: batch).utf8).write(to: script)
        let seconds = max(1, Int((duration / .seconds(1)).rounded(.up)))
        let arguments = [
            "--no-vacuum", "--protocol=prepared", "--client=\(clients)", "--jobs=1", "--time=\(seconds)",
            "--file=\(script.path)", "--define=data=\(BenchEvent.body)", "--define=metadata=\(BenchEvent.metadataJSON)",
        ]
        let (status, stdout, stderr) = try await SpawnedProcess.output(of: executable, arguments, environment: environment)
        guard status == .exited(0), let rate = Self.transactionsPerSecond(in: stdout),
            let transactions = Self.transactionsProcessed(in: stdout)
        else {
            throw CommandFailure("pgbench \(status): \(stderr.isEmpty ? stdout : stderr)")
        }
        if let failed = Self.failedTransactions(in: stdout), failed > 0 {
            throw CommandFailure("pgbench: \(failed) transactions failed\n\(stderr)")
        }
        return (rate * Double(batch), transactions * batch)
    }

    /// One transaction of the script: `batch` rows of one new stream in one `INSERT`, as
    /// `append_events` writes them; each row's JSON is parsed from its own parameter, as
    /// the event log parses each element of its arrays. (In a pgbench script `:name` is a
    /// variable: the JSON travels in variables, so that its colons are never read as one.)
    static func insertScript(table: String, batch: Int) -> String {
        let rows = (1...batch).map { "(\($0), :data::jsonb, :metadata::jsonb)" }.joined(separator: ", ")
        return """
            \\set s random(1, 9000000000000000000)
            INSERT INTO \(table) (stream, category, version, id, type, schema_version, data, metadata) \
            SELECT '\(BenchEvent.category)-pgbench.' || :s, '\(BenchEvent.category)', v.n, gen_random_uuid(), '\(BenchEvent.type)', 1, v.d, v.m \
            FROM (VALUES \(rows)) AS v(n, d, m);

            """
    }

    /// libpq's environment for the configured server; the parent's otherwise.
    private var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["PGHOST"] = configuration.host
        environment["PGPORT"] = String(configuration.port)
        environment["PGUSER"] = configuration.username
        environment["PGDATABASE"] = configuration.database
        environment["PGSSLMODE"] = configuration.tls.rawValue
        environment["PGPASSWORD"] = configuration.password
        environment["PGSSLROOTCERT"] = configuration.certificateAuthorityFile
        environment["PGAPPNAME"] = "commons-bench"
        return environment
    }

    /// The `tps = …` of pgbench's report (excluding the time to connect).
    static func transactionsPerSecond(in report: String) -> Double? {
        for line in report.split(separator: "\n") where line.hasPrefix("tps = ") {
            return Double(line.dropFirst(6).prefix { $0 != " " })
        }
        return nil
    }

    /// The `number of transactions actually processed: N` of pgbench's report (N/M when
    /// pgbench was given a number of transactions; with `--time`, N alone).
    static func transactionsProcessed(in report: String) -> Int? {
        let label = "number of transactions actually processed: "
        for line in report.split(separator: "\n") where line.hasPrefix(label) {
            return Int(line.dropFirst(label.count).prefix { $0.isNumber })
        }
        return nil
    }

    /// The `number of failed transactions: N` of pgbench's report.
    static func failedTransactions(in report: String) -> Int? {
        let label = "number of failed transactions: "
        for line in report.split(separator: "\n") where line.hasPrefix(label) {
            return Int(line.dropFirst(label.count).prefix { $0 != " " })
        }
        return nil
    }
}
