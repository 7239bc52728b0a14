import Dispatch
import EventLogPostgres
import Foundation

/// Connections, each on a thread of its own, that take the jobs of one queue: a job waits
/// only while every connection is busy. A connection that finds jobs waiting and no other
/// connection free takes all that can share a pipeline (up to ``largestPipeline``) and sends
/// them together: one round trip, one wake-up, for several writers.
///
/// The connection that went idle last is woken first, as a stack: a steady writer keeps
/// using one connection, whose server process stays warm, rather than every connection in
/// turn (`bench eventlog` found round-robin costing PostgreSQL about a quarter more per
/// single-event append).
///
/// The threads are the pool's own, so libpq's blocking calls never hold an event loop or a
/// thread of Swift's cooperative pool; answers go back through continuations.
final class LibPQPool: @unchecked Sendable {
    // Everything below is guarded by `lock`.
    private let lock = NSLock()
    private var queue: [LibPQJob] = []
    /// The idle connections' wake-ups, the last to go idle on top.
    private var idle: [DispatchSemaphore] = []
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
        lock.lock()
        guard !closed else {
            lock.unlock()
            job.fail(.closed)
            return
        }
        queue.append(job)
        let wake = idle.popLast()
        lock.unlock()
        wake?.signal()
    }

    /// Stops taking jobs: those waiting are answered with ``LibPQError/closed``; each thread
    /// closes its connection once its current job is done.
    func close() {
        lock.lock()
        closed = true
        let (waiting, sleeping) = (queue, idle)
        queue = []
        idle = []
        lock.unlock()
        for wake in sleeping { wake.signal() }
        for job in waiting { job.fail(.closed) }
    }

    private func work(_ connection: LibPQConnection) {
        let wake = DispatchSemaphore(value: 0)
        while let jobs = take(wake) {
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
    /// connection is free; waits on `wake` while there is none; nil once closed.
    private func take(_ wake: DispatchSemaphore) -> [LibPQJob]? {
        while true {
            lock.lock()
            if closed {
                lock.unlock()
                return nil
            }
            guard !queue.isEmpty else {
                idle.append(wake)
                lock.unlock()
                wake.wait()
                continue
            }
            var jobs = [queue.removeFirst()]
            if jobs[0].isPipelinable, idle.isEmpty {
                while jobs.count < Self.largestPipeline, let next = queue.first, next.isPipelinable {
                    jobs.append(queue.removeFirst())
                }
            }
            lock.unlock()
            return jobs
        }
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
