import Foundation

/// One call of the API, before the client adds tokens, keys and positions.
struct Endpoint: Sendable {
    enum Method: String, Sendable { case get = "GET", post = "POST", put = "PUT", patch = "PATCH", delete = "DELETE" }

    /// Whether the call carries the session's access token.
    enum Auth: Sendable {
        /// Never (sign-in, registration, refresh).
        case none
        /// When signed in: the answer may show more to some readers (an owner, a member).
        case optional
        /// Always; without a session the call fails before it is sent.
        case required
    }

    var method: Method
    var path: String
    var query: [URLQueryItem] = []
    var body: Data?
    var contentType = "application/json"
    var auth: Auth = .required
    /// Sends an `Idempotency-Key`, one per logical call, kept across its retries.
    var idempotent = false
    var ifMatch: ETag?
    var headers: [String: String] = [:]

    init(_ method: Method, _ path: String, query: [URLQueryItem] = [], auth: Auth = .required, idempotent: Bool = false, ifMatch: ETag? = nil) {
        self.method = method
        self.path = path
        self.query = query
        self.auth = auth
        self.idempotent = idempotent
        self.ifMatch = ifMatch
    }

    init(
        _ method: Method, _ path: String, json: some Encodable & Sendable, query: [URLQueryItem] = [], auth: Auth = .required,
        idempotent: Bool = false, ifMatch: ETag? = nil
    ) throws {
        self.init(method, path, query: query, auth: auth, idempotent: idempotent, ifMatch: ifMatch)
        body = try CommonsJSON.encoder.encode(json)
    }
}

/// A path segment made safe: ids and slugs go into paths as they are, other text escaped.
func segment(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? text
}

func segment(_ id: UUID) -> String { id.uuidString.lowercased() }

/// Query items from optional values; nil ones are left out.
func query(_ pairs: [(String, (any CustomStringConvertible)?)]) -> [URLQueryItem] {
    pairs.compactMap { name, value in value.map { URLQueryItem(name: name, value: $0.description) } }
}
