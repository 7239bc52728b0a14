import EventLogPostgres
import Foundation

/// Connections, each on a thread of its own, that take the jobs of one queue: a job waits
/// only while every connection is busy. A connection that finds jobs waiting and no other
/// connection free takes all that can share a pipeline (up to ``largestPipeline``) and sends
/// them together: one round trip, one wake-up, for several writers.
///
/// The threads are the pool's own, so libpq's blocking calls never hold an event loop or a
/// thread of Swift's cooperative pool; answers go back through continuations.
final class LibPQPool: @unchecked Sendable {
    // Everything below is guarded by `condition`.
    private let condition = NSCondition()
    private var queue: [LibPQJob] = []
    private var idle = 0
    private var closed = false

    /// At most this many statements go in one pipeline.
    static let largestPipeline = 32

    /// Starts `size` connections' threads; each connects when it first has work.
    init(connectionString: String, size: Int, name: String) {
        for index in 0..<max(1, size) {
            let thread = Thread { [self] in work(LibPQConnection(connectionString: connectionString)) }
            thread.name = "\(name) \(index)"
            thread.start()
        }
    }

    /// Queues `job`; answers it at once with ``LibPQError/closed`` after ``close()``.
    func enqueue(_ job: LibPQJob) {
        condition.lock()
        guard !closed else {
            condition.unlock()
            job.fail(.closed)
            return
        }
        queue.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Stops taking jobs: those waiting are answered with ``LibPQError/closed``; each thread
    /// closes its connection once its current job is done.
    func close() {
        condition.lock()
        closed = true
        let waiting = queue
        queue = []
        condition.broadcast()
        condition.unlock()
        for job in waiting { job.fail(.closed) }
    }

    private func work(_ connection: LibPQConnection) {
        while let jobs = take() {
            if case .session(let session) = jobs[0] {
                session.run(connection)
                continue
            }
            connection.run(
                jobs.compactMap {
                    if case .statement(let statement) = $0 { return statement }
                    return nil
                })
        }
        connection.disconnect()
    }

    /// The next job, with the pipelinable ones after it when it is one and no other
    /// connection is free; nil once closed.
    private func take() -> [LibPQJob]? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty, !closed {
            idle += 1
            condition.wait()
            idle -= 1
        }
        guard !closed else { return nil }
        var jobs = [queue.removeFirst()]
        if jobs[0].isPipelinable, idle == 0 {
            while jobs.count < Self.largestPipeline, let next = queue.first, next.isPipelinable {
                jobs.append(queue.removeFirst())
            }
        }
        return jobs
    }
}

extension LibPQPool {
    /// Runs a prepared statement and decodes its result on the connection's thread.
    func execute<Output: Sendable>(
        _ sql: PreparedSQL, _ parameters: [LibPQParameter], pipelinable: Bool = true,
        decode: @escaping @Sendable (LibPQResult) throws -> Output
    ) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            enqueue(
                .statement(
                    StatementJob(sql: sql, parameters: parameters, pipelinable: pipelinable) { result in
                        switch result {
                        case .success(let rows): continuation.resume(with: Result { try decode(rows) })
                        case .failure(let error): continuation.resume(throwing: error)
                        }
                    }))
        }
    }

    /// Runs `body` on a connection's thread, with the connection to itself.
    func session<Output: Sendable>(_ body: @escaping @Sendable (LibPQConnection) throws -> Output) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            enqueue(
                .session(
                    SessionJob(
                        run: { connection in continuation.resume(with: Result { try body(connection) }) },
                        fail: { error in continuation.resume(throwing: error) })))
        }
    }
}

extension LibPQPool {
    static let notify = PreparedSQL("commons_notify_channels", LogStatementText.notify, [.textArray, .text])

    /// Sends `notification` in a `NOTIFY` statement of its own, queued without a task.
    func send(_ notification: AppendNotifier.Notification, sent: @escaping @Sendable ((any Error)?) -> Void) {
        let parameters: [LibPQParameter] = [.array(notification.channels), .text(notification.payload)]
        enqueue(
            .statement(
                StatementJob(sql: Self.notify, parameters: parameters, pipelinable: true) { result in
                    if case .failure(let error) = result { sent(error) } else { sent(nil) }
                }))
    }
}
