/// An error that knows its problem document. ``ProblemMiddleware`` renders it, so a route
/// throws a service's domain error as it is, with no mapping of its own; the domain type
/// stays free of HTTP, its conformance lives in the service.
public protocol ProblemConvertible: Error {
    /// The problem document a client gets for this error.
    var problem: Problem { get }
}

extension Problem: ProblemConvertible {
    public var problem: Problem { self }
}
