import NIOCore

/// Runs a task's jobs on one NIO event loop: a statement sent from a task that prefers its
/// connection's loop is written to the socket, and its answer read, without a hop between
/// Swift's cooperative threads and the loop's thread in each direction.
///
/// Only for short, non-blocking work, as anything else on an event loop: the store runs a
/// prepared statement and collects its rows there, nothing more (``StatementConnections``).
/// From a standalone loop of prepared single-row `INSERT`s on this project's 2-core machine
/// (2026-11-28): four context switches and 143 µs of CPU per statement from the global
/// executor, one switch and 89 µs on the connection's loop.
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
