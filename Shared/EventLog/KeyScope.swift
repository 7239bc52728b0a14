import Foundation
import Synchronization

/// Remembers the personal-data keys looked up within one short scope: a request, or a page
/// of events that a projection prepares. Posting a listing seals its place, its text and its
/// note with the owner's key and then opens them for the answer; within a scope that is one
/// look-up of the key instead of five round trips to the vault.
///
/// Nothing outlives the scope: a key destroyed now is refused by the next request and the
/// next page, as it was without a scope. A vault consults ``current`` (a task-local, so child
/// tasks share their parent's scope) and forgets a key it destroys.
public final class KeyScope: Sendable {
    /// The scope the current task runs in; nil outside any.
    @TaskLocal public static var current: KeyScope?

    private let keys = Mutex<[UUID: Data?]>([:])

    public init() {}

    /// Runs `body` in a new scope.
    public static func run<T>(_ body: () async throws -> T) async rethrows -> T {
        try await $current.withValue(KeyScope()) { try await body() }
    }

    /// The answer remembered for `owner`: `.some(nil)` when the vault said there is no key
    /// (none yet, or destroyed); nil when it was not asked in this scope.
    public func remembered(_ owner: UUID) -> Data?? {
        keys.withLock { $0[owner] }
    }

    /// Remembers the vault's answer for `owner`.
    public func remember(_ key: Data?, for owner: UUID) {
        keys.withLock { $0[owner] = .some(key) }
    }

    /// Forgets `owner`'s key (when it is destroyed).
    public func forget(_ owner: UUID) {
        keys.withLock { _ = $0.removeValue(forKey: owner) }
    }
}
