/// Which of a service's projections a read carrying `Commons-Min-Position` waits for: the
/// ones its route reads (DESIGN: the service waits "until its projection has passed it").
///
/// A path under one of ``prefixes`` (each ending in `/`; the longest that matches wins) waits
/// for the projections named there, and for the revocation list as well when the request
/// carries credentials, so that a token revoked by the write is refused. Any other path waits
/// for every projection of the service, as does a service that names no prefixes. Waiting for
/// a projection that the route does not read costs that projection a read of the log for
/// nothing, beside the one that matters (issue 17: nearby searches after a post waited for
/// the revocation list and the alerts too).
public struct ProjectionsByPath: Sendable, Equatable {
    /// The projections a route reads, by the prefix of its path.
    public let prefixes: [String: Set<String>]

    public init(_ prefixes: [String: Set<String>] = [:]) {
        self.prefixes = prefixes
    }

    /// The names among `all` that a read of `path` waits for, in `all`'s order.
    public func waited(forPath path: String, credentials: Bool, among all: [String]) -> [String] {
        let match = prefixes.keys.filter { path.hasPrefix($0) }.max { $0.count < $1.count }
        guard let match, var names = prefixes[match] else { return all }
        if credentials { names.insert(RevocationProjection.projectionName) }
        return all.filter { names.contains($0) }
    }

    /// Why these prefixes cannot serve a service with projections `all`, or nil when they can:
    /// a prefix that does not end in `/`, or a name that is not one of the projections.
    public func problem(among all: [String]) -> String? {
        for (prefix, names) in prefixes.sorted(by: { $0.key < $1.key }) {
            guard prefix.hasPrefix("/"), prefix.hasSuffix("/") else { return "the path prefix \(prefix) must start and end with /" }
            if let unknown = names.sorted().first(where: { !all.contains($0) }) {
                return "the path prefix \(prefix) names \(unknown), which is not one of the projections \(all.joined(separator: ", "))"
            }
        }
        return nil
    }
}
