import EventLog
import Foundation
import Logging
import PostgresNIO
import Synchronization

/// The driver's best for the append cases: the rows pgbench inserts, in one `INSERT` per
/// append (a batch from arrays through `unnest`, as the log's own batches are sent), prepared
/// once per connection, on a connection of each writer's own (no pool), sent from a Swift task
/// as the log's statements are. What the log costs beyond it is the log's; what it costs beyond
/// pgbench is PostgresNIO's and Swift concurrency's, whatever the log does.
struct DriverInsert: Sendable {
    /// Settings of a connection whose `search_path` is the bench's schema.
    let configuration: PostgresConnection.Configuration

    /// One connection per writer, opened before measuring: a connection opened inside the
    /// measurement could outlast a short one and leave the row at 0.
    func open(writers: Int) async throws -> OpenedConnections {
        let opened = OpenedConnections()
        do {
            for worker in 0..<writers {
                opened.add(try await PostgresConnection.connect(configuration: configuration, id: worker, logger: Self.logger))
            }
        } catch {
            await opened.closeAll()
            throw error
        }
        return opened
    }

    static let logger = Logger(label: "commons.bench.driver")

    /// One step per writer: `batch` rows of a new stream in one prepared `INSERT` into the
    /// bench's `ceiling` table, on that writer's connection of `opened`.
    func steps(tag: String, batch: Int, opened: OpenedConnections) -> @Sendable (Int) -> BenchStep {
        { worker in
            var cursor = BenchStreamCursor("\(BenchEvent.category)-\(tag).\(worker).")
            let connection = opened.connection(worker)
            return {
                let (stream, version) = cursor.advance(by: batch)
                if batch == 1 {
                    for try await _ in try await connection.execute(InsertOne(stream: stream, version: version + 1), logger: Self.logger) {}
                } else {
                    for try await _ in try await connection.execute(InsertBatch(stream: stream, version: version, count: batch), logger: Self.logger)
                    {}
                }
                return batch
            }
        }
    }

    /// The writers' connections, closed once a case is measured.
    final class OpenedConnections: Sendable {
        private let connections = Mutex<[PostgresConnection]>([])

        func add(_ connection: PostgresConnection) { connections.withLock { $0.append(connection) } }

        func connection(_ worker: Int) -> PostgresConnection { connections.withLock { $0[worker] } }

        func closeAll() async {
            for connection in connections.withLock({ list in
                defer { list = [] }; return list
            }) {
                try? await connection.close()
            }
        }
    }

    /// One row, as pgbench's script inserts it.
    struct InsertOne: PostgresPreparedStatement {
        static let name = "commons_bench_insert_one"
        static let sql = """
            INSERT INTO ceiling (stream, category, version, id, type, schema_version, data, metadata)
            VALUES ($1, $2, $3, $4, $5, 1, $6::jsonb, $7::jsonb)
            """
        typealias Row = ()
        var stream: String
        var version: Int64

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 7)
            bindings.append(stream)
            bindings.append(BenchEvent.category)
            bindings.append(version)
            bindings.append(UUID.random())
            bindings.append(BenchEvent.type)
            bindings.append(BenchEvent.body)
            bindings.append(BenchEvent.metadataJSON)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws {}
    }

    /// `count` rows of one stream in one statement, from arrays.
    struct InsertBatch: PostgresPreparedStatement {
        static let name = "commons_bench_insert_batch"
        static let sql = """
            INSERT INTO ceiling (stream, category, version, id, type, schema_version, data, metadata)
            SELECT $1, $2, $3 + n.ord, n.id, $4, 1, n.data, n.metadata
            FROM unnest($5::uuid[], $6::jsonb[], $7::jsonb[]) WITH ORDINALITY AS n(id, data, metadata, ord)
            """
        typealias Row = ()
        var stream: String
        var version: Int64
        var count: Int

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 7)
            bindings.append(stream)
            bindings.append(BenchEvent.category)
            bindings.append(version)
            bindings.append(BenchEvent.type)
            bindings.append((0..<count).map { _ in UUID.random() })
            bindings.append(Array(repeating: BenchEvent.body, count: count))
            bindings.append(Array(repeating: BenchEvent.metadataJSON, count: count))
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws {}
    }
}
