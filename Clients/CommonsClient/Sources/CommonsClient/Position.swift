import Foundation

/// Remembers the highest `Commons-Position` any write answered with, to send as
/// `Commons-Min-Position` so that every later read, on any service, sees those writes
/// (docs/api.md, "Versions, positions and paging"). Thread-safe; one per client.
public final class PositionTracker: Sendable {
    private let highest: Locked<String?>

    public init(_ initial: String? = nil) {
        highest = Locked(initial)
    }

    /// The position to send as `Commons-Min-Position`; nil before any write.
    public var current: String? { highest.withLock { $0 } }

    /// Takes a write's position; keeps whichever of it and the current one is higher.
    public func observe(_ position: String) {
        let trimmed = position.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return }
        highest.withLock { current in
            if let existing = current, Self.compare(trimmed, existing) != .orderedDescending { return }
            current = trimmed
        }
    }

    /// Forgets every position (e.g. after signing out).
    public func reset() {
        highest.withLock { $0 = nil }
    }

    /// Orders two positions. A position is opaque to clients but today it is
    /// `transaction:position` (numbers; SQLite's transaction is 0), compared as a pair of
    /// numbers, never as text. A value that is not such a pair counts as newer, so that an
    /// unknown future format still moves forward.
    static func compare(_ lhs: String, _ rhs: String) -> ComparisonResult {
        guard let left = numbers(lhs), let right = numbers(rhs), left.count == right.count else { return .orderedDescending }
        for (l, r) in zip(left, right) where l != r { return l < r ? .orderedAscending : .orderedDescending }
        return .orderedSame
    }

    private static func numbers(_ text: String) -> [UInt64]? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { UInt64($0) }
        guard !parts.isEmpty, parts.allSatisfy({ $0 != nil }) else { return nil }
        return parts.compactMap { $0 }
    }
}
