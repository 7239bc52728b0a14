/// A configuration value that cannot work. Its description is the one line a process
/// prints before it exits non-zero.
public struct ConfigurationError: Error, CustomStringConvertible, Equatable {
    /// The environment variable at fault.
    public let key: String
    public let problem: String

    public init(key: String, problem: String) {
        self.key = key
        self.problem = problem
    }

    public var description: String { "configuration error: \(key): \(problem)" }
}
