import Foundation

/// An `ETag` a service sent with a resource: the aggregate's version (docs/api.md,
/// "Versions, positions and paging"). Send it back as `If-Match` on an update; a stale one
/// gets a ``CommonsProblem`` with status 412.
public struct ETag: Sendable, Hashable, CustomStringConvertible {
    /// The header's value as sent, e.g. `"3"`.
    public var value: String

    public init(_ value: String) {
        self.value = value
    }

    /// The ETag of an aggregate at `version` (for views that carry their `version`).
    public init(version: Int64) {
        value = "\"\(version)\""
    }

    /// The version inside the quotes, when it is a number.
    public var version: Int64? {
        Int64(value.replacingOccurrences(of: "W/", with: "").trimmingCharacters(in: CharacterSet(charactersIn: "\" ")))
    }

    public var description: String { value }
}

/// A resource with the `ETag` it was read with, to update it with `If-Match`.
public struct Tagged<Value: Sendable>: Sendable {
    public var value: Value
    public var etag: ETag?

    public init(value: Value, etag: ETag?) {
        self.value = value
        self.etag = etag
    }
}

extension Tagged: Equatable where Value: Equatable {}
