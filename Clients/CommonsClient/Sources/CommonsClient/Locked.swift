import Foundation

/// A value only reached while holding a lock: the SDK's stand-in for `Synchronization.Mutex`,
/// which needs iOS 18 and macOS 15, above the package's floor.
///
/// `@unchecked Sendable` is sound here because the value is private and every read and
/// write of it happens inside ``withLock(_:)``, between `lock()` and `unlock()` of one
/// `NSLock`, and the value itself must be `Sendable` to be handed out of it.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value while holding the lock.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        // NSLocking.withLock needs iOS 17 and macOS 14, so the lock is taken by hand.
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
