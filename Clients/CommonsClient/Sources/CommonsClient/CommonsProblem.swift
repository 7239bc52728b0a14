import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An RFC 9457 problem document a Commons service answered with (docs/api.md, "Requests and errors"): the
/// request reached a service and was refused. Transport failures are ``CommonsTransportError``.
public struct CommonsProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status of the response (the document's `status` when it has one).
    public var status: Int
    /// A stable identifier of the kind of problem, e.g. `https://commons.example/problems/validation`.
    public var type: String
    public var title: String
    public var detail: String
    /// Per-field messages, keyed by the field's JSON path (e.g. `price.amountMinor`).
    public var errors: [String: [String]]
    /// Extra members a client may act on, e.g. the current `version` or `balance`.
    public var extensions: [String: String]
    /// `Retry-After`, in seconds, when the response had one.
    public var retryAfter: Int?

    public init(
        status: Int, type: String = "about:blank", title: String = "", detail: String = "",
        errors: [String: [String]] = [:], extensions: [String: String] = [:], retryAfter: Int? = nil
    ) {
        self.status = status
        self.type = type
        self.title = title
        self.detail = detail
        self.errors = errors
        self.extensions = extensions
        self.retryAfter = retryAfter
    }

    /// The part of `type` after the last `/`, e.g. `validation`, `stale-version`, `not-found`.
    public var kind: String { type.split(separator: "/").last.map(String.init) ?? type }

    public var description: String {
        var text = "\(status) \(kind): \(detail.isEmpty ? title : detail)"
        if !errors.isEmpty {
            text += " " + errors.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.joined(separator: ", "))" }.joined(separator: "; ")
        }
        return text
    }

    /// The problem a response stands for: its problem document when the body is one, else
    /// one made from the status alone (a gateway's HTML error page, an empty body).
    public static func decode(status: Int, body: Data, retryAfter: String? = nil) -> CommonsProblem {
        let seconds = retryAfter.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard let document = try? JSONDecoder().decode(Document.self, from: body) else {
            let text = String(decoding: body.prefix(200), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return CommonsProblem(
                status: status, title: HTTPURLResponse.localizedString(forStatusCode: status),
                detail: text.hasPrefix("<") ? "" : text, retryAfter: seconds)
        }
        return CommonsProblem(
            status: document.status ?? status, type: document.type ?? "about:blank", title: document.title ?? "",
            detail: document.detail ?? "", errors: document.errors ?? [:], extensions: document.extensions ?? [:],
            retryAfter: seconds)
    }

    private struct Document: Decodable {
        var type: String?
        var title: String?
        var status: Int?
        var detail: String?
        var errors: [String: [String]]?
        var extensions: [String: String]?
    }
}

/// The request did not get an HTTP answer from Commons, or the answer was not what the
/// API promises. Distinct from ``CommonsProblem``, which is a refusal by a service.
public enum CommonsTransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The connection failed or timed out (with the underlying error's description).
    case unreachable(String)
    /// A success response whose body did not decode as the documented shape.
    case undecodable(path: String, reason: String)
    /// The request needs a signed-in session and there is none.
    case notSignedIn

    public var description: String {
        switch self {
        case .unreachable(let reason): "unreachable: \(reason)"
        case .undecodable(let path, let reason): "undecodable response from \(path): \(reason)"
        case .notSignedIn: "not signed in"
        }
    }
}
