import Foundation

/// Small named secrets that every replica of a service must share (the token-signing keys),
/// kept beside the log and never exported with it. Callers seal values before they come
/// here; writes are compare-and-swap on a version, so two replicas never overwrite each
/// other (a rotation made on one is the one all of them read).
public protocol ServiceSecrets: Sendable {
    /// The value stored as `name` and its version, or nil when there is none yet.
    func read(_ name: String) async throws -> (value: Data, version: Int64)?
    /// Stores `value` as `name` if its version is still `expected` (0: nothing stored yet),
    /// as version `expected + 1`; false when another writer got there first.
    func write(_ name: String, value: Data, replacing expected: Int64) async throws -> Bool
}
