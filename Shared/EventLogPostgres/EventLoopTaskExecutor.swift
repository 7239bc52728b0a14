import NIOCore

/// Runs a task's jobs on one NIO event loop: a statement sent from a task that prefers its
/// connection's loop is written to the socket, and its answer read, without a hop between
/// Swift's cooperative threads and the loop's thread in each direction.
///
/// Only for short, non-blocking work, as anything else on an event loop: the store runs a
/// prepared statement and collects its rows there, nothing more (``StatementConnections``).
/// Each page's rows are decoded on the thread that reads them, which brings read-all
/// markedly closer to a plain `SELECT` (`commons bench eventlog`, docs/performance.md).
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
