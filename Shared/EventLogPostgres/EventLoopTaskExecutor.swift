import NIOCore

/// Runs a task's jobs on one NIO event loop: a statement sent from a task that prefers its
/// connection's loop is written to the socket, and its answer read, without a hop between
/// Swift's cooperative threads and the loop's thread in each direction.
///
/// Only for short, non-blocking work, as anything else on an event loop: the store runs a
/// prepared statement and collects its rows there, nothing more (``StatementConnections``).
/// Measured with `commons bench eventlog` on this project's 2-core machine (2026-11-28, see
/// the README): read-all rose from 0.61–0.72 to 0.78–0.86 of a plain `SELECT`, since each
/// page's rows are decoded on the thread that reads them; single-event appends did not move.
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
