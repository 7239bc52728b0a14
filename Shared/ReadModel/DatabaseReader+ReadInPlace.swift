import GRDB

extension DatabaseReader {
    /// Runs a short, bounded read on the calling thread, in a read transaction of its own.
    ///
    /// GRDB's `async` read hands its work to the reader's dispatch queue and back again: two
    /// thread switches around the query. Geo-search's nearby search, whose query is bounded by
    /// its scan budget, answered about a fifth more requests a second without them (issue 17;
    /// the README's Benchmarks); the feed and donation history did not move, and keep the
    /// `async` read. Not for unbounded reads: this one holds a Swift concurrency thread until
    /// it ends, and it does not stop when the task is cancelled.
    public func readInPlace<T>(_ value: (Database) throws -> T) throws -> T {
        try read(value)
    }
}
