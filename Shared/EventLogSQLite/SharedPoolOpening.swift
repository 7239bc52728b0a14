import Backoff
import Foundation
import GRDB

extension DatabasePool {
    /// Opens a pool on a file that other processes may be opening at the same moment.
    ///
    /// The first opening of a fresh file switches it to WAL, and SQLite answers that switch
    /// with SQLITE_BUSY at once, without waiting out the busy timeout, while another
    /// connection holds the file (as when `commons up` starts every service on one new log).
    /// So the whole opening is retried, a few milliseconds apart, for up to `patience`.
    static func openingShared(path: String, configuration: Configuration, patience: Duration = .seconds(30)) throws -> DatabasePool {
        let clock = ContinuousClock()
        let deadline = clock.now + patience
        var pauses = Backoff(initial: .milliseconds(5), maximum: .milliseconds(100)).attempts()
        while true {
            do {
                return try DatabasePool(path: path, configuration: configuration)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && clock.now < deadline {
                Thread.sleep(forTimeInterval: pauses.next() / .seconds(1))
            }
        }
    }
}
