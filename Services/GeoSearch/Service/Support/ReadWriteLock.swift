#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value many threads read at once and one writes alone (`pthread_rwlock`): searches read
/// the places in memory side by side, and a commit changes them in place, without the copy a
/// copy-on-write snapshot would make of the whole grid for every change.
final class ReadWriteLocked<Value>: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)
    private var value: Value

    init(_ value: Value) {
        self.value = value
        pthread_rwlock_init(lock, nil)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    /// Runs `body` on the value beside other readers, never beside a writer.
    func read<T>(_ body: (Value) throws -> T) rethrows -> T {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body(value)
    }

    /// Runs `body` on the value alone.
    func write<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body(&value)
    }
}
