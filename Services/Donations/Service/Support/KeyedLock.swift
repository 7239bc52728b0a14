import Foundation
import Synchronization

/// Runs work for one key at a time within this process, in arrival order, so that
/// donations from one wallet queue up instead of colliding on its stream's version.
/// Across processes the expected version still decides; this only saves wasted attempts.
final class KeyedLock: Sendable {
    /// Keys that are held, with who waits for each.
    private let waiting = Mutex<[String: [CheckedContinuation<Void, Never>]]>([:])

    func withLock<T>(_ key: String, _ body: () async throws -> T) async throws -> T {
        await acquire(key)
        do {
            let result = try await body()
            release(key)
            return result
        } catch {
            release(key)
            throw error
        }
    }

    private func acquire(_ key: String) async {
        await withCheckedContinuation { continuation in
            let free = waiting.withLock { table -> Bool in
                guard table[key] != nil else {
                    table[key] = []
                    return true
                }
                table[key]!.append(continuation)
                return false
            }
            if free { continuation.resume() }
        }
    }

    private func release(_ key: String) {
        let next = waiting.withLock { table -> CheckedContinuation<Void, Never>? in
            guard var queue = table[key], !queue.isEmpty else {
                table[key] = nil
                return nil
            }
            let first = queue.removeFirst()
            table[key] = queue
            return first
        }
        next?.resume()
    }
}
