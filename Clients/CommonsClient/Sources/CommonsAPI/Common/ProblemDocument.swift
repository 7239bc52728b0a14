import Foundation

/// An RFC 9457 problem document inside another answer (a batch's rejected command, say).
public struct ProblemDocument: Codable, Sendable, Equatable {
    public var type: String
    public var title: String?
    public var status: Int?
    public var detail: String?
    /// Per-field messages, keyed by the field's JSON path.
    public var errors: [String: [String]]?
    /// Extra members a client may act on, e.g. the current `version`.
    public var extensions: [String: String]?

    public init(
        type: String, title: String? = nil, status: Int? = nil, detail: String? = nil, errors: [String: [String]]? = nil,
        extensions: [String: String]? = nil
    ) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.errors = errors
        self.extensions = extensions
    }
}
