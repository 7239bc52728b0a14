import Logging
import NIOPosix
import PostgresNIO

/// A connection closed while one of our statements still waited on it.
public struct PostgresConnectionLost: Error, CustomStringConvertible {
    public var description: String { "the connection to PostgreSQL closed before it answered" }
}

/// Runs `body` in one transaction on a connection of its own, outside the pool, and commits.
///
/// For the few long transactions (migrations, imports): PostgresNIO 1.33 can leave a
/// statement unanswered for ever when its connection closes under it, and a transaction
/// holds one connection across many statements. Here the connection's close ends the wait
/// at once with ``PostgresConnectionLost`` (the server has rolled the transaction back), as
/// does cancellation of the calling task; any error closes the connection, which also rolls
/// back, so nothing waits on a `ROLLBACK` that may not be answered either.
func withDedicatedTransaction<T: Sendable>(
    _ configuration: PostgresConnection.Configuration, logger: Logger,
    _ body: @escaping @Sendable (PostgresConnection) async throws -> T
) async throws -> T {
    let connection = try await PostgresConnection.connect(
        on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration, id: 1, logger: logger)
    do {
        let result = try await settledByClose(of: connection) {
            try await connection.query("BEGIN", logger: logger)
            let result = try await body(connection)
            try await connection.query("COMMIT", logger: logger)
            return result
        }
        connection.closeWithoutWaiting()
        return result
    } catch {
        connection.closeWithoutWaiting()
        throw error
    }
}

/// Migrations and imports are idempotent: one that lost its connection is run again, up to
/// `attempts` times in all, with a short pause.
func retryingLostConnections<T: Sendable>(
    attempts: Int = 3, logger: Logger, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    for attempt in 1..<attempts {
        do {
            return try await operation()
        } catch is PostgresConnectionLost {
            logger.warning("PostgreSQL connection lost in a transaction; trying again", metadata: ["attempt": "\(attempt)"])
            try await Task.sleep(for: .milliseconds(200))
        }
    }
    return try await operation()
}

/// `operation`'s result, or ``PostgresConnectionLost`` as soon as `connection` closes, or
/// `CancellationError` when the calling task is cancelled: whichever comes first.
private func settledByClose<T: Sendable>(
    of connection: PostgresConnection, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let outcome = Outcome<T>()
    connection.closeFuture.whenComplete { _ in outcome.settle(.failure(PostgresConnectionLost())) }
    let work = Task {
        do { outcome.settle(.success(try await operation())) } catch { outcome.settle(.failure(error)) }
    }
    defer { work.cancel() }
    return try await withTaskCancellationHandler {
        try await outcome.value()
    } onCancel: {
        outcome.settle(.failure(CancellationError()))
    }
}

extension PostgresConnection {
    /// Closes the connection without waiting for the server to acknowledge it.
    func closeWithoutWaiting() {
        let connection = self
        Task { try? await connection.close() }
    }
}
