import Crypto
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import NIOCore

/// `Idempotency-Key` on POST: the first response to a key is stored (status, headers and
/// body) and returned again for a retry with the same key and body; the same key with a
/// different body gets 422, and a retry while the first is still running gets 409.
///
/// Keys are scoped to the caller (account, or anonymous) and kept for 24 hours in the
/// service's own SQLite file. Commands that move money also derive their event ids from
/// the key (see ``AppRequestContext/idempotentEventId(_:)``), so that a retry reaching
/// another replica is still caught by the log.
struct IdempotencyMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let store: IdempotencyStore
    /// Larger limits of routes that take uploads, by path; JSON's otherwise.
    var bodyLimits: [String: Int] = [:]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .post, let key = request.headers[.idempotencyKey] else { return try await next(request, context) }
        guard (1...255).contains(key.count) else {
            throw Problem.validation(["Idempotency-Key": ["must be 1 to 255 characters"]], detail: "The Idempotency-Key header is invalid.")
        }
        var request = request
        let body = try await request.readBody(upTo: bodyLimits[request.uri.path] ?? context.maxUploadSize)
        request.body = RequestBody(buffer: body)
        let scope = "\(context.identity?.accountId.uuidString.lowercased() ?? "anonymous") \(request.method) \(request.uri.path)"
        let hash = SHA256.hash(data: Data(body.readableBytesView)).map { String(format: "%02x", $0) }.joined()

        switch try await store.begin(scope: scope, key: key, requestHash: hash) {
        case .inProgress:
            throw Problem.conflict("A request with this Idempotency-Key is still being processed.", type: "idempotency-in-progress")
        case .differentRequest:
            throw Problem(.unprocessableContent, type: "idempotency-key-reused",
                          detail: "This Idempotency-Key was used with a different request body.")
        case .replay(let stored):
            var headers = HTTPFields()
            for (name, value) in stored.headers { if let field = HTTPField.Name(name) { headers[field] = value } }
            headers[HTTPField.Name("Idempotent-Replayed")!] = "true"
            return Response(status: .init(code: stored.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: stored.body)))
        case .started:
            break
        }
        let response: Response
        do {
            response = try await next(request, context)
        } catch {
            try? await store.abandon(scope: scope, key: key)
            throw error
        }
        guard response.status.code < 500 else {
            try? await store.abandon(scope: scope, key: key)
            return response
        }
        let collector = BodyCollector()
        try await response.body.write(collector)
        let bytes = collector.bytes
        var headers: [String: String] = [:]
        for field in response.headers where field.name != .contentLength { headers[field.name.rawName] = field.value }
        try await store.finish(scope: scope, key: key, response: .init(status: response.status.code, headers: headers, body: bytes))
        var replayable = response
        replayable.body = .init(byteBuffer: ByteBuffer(bytes: bytes))
        return replayable
    }
}

/// Gathers a response body so that it can be stored.
private final class BodyCollector: ResponseBodyWriter, @unchecked Sendable {
    private(set) var bytes: [UInt8] = []

    func write(_ buffer: ByteBuffer) async throws { bytes += buffer.readableBytesView }
    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

/// The stored first responses of idempotent requests.
final class IdempotencyStore: Sendable {
    struct StoredResponse: Codable, Sendable {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
    }

    enum Start {
        case started
        case inProgress
        case differentRequest
        case replay(StoredResponse)
    }

    private let queue: DatabaseQueue
    private let retention: TimeInterval = 24 * 3600

    init(path: String) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS idempotency (
                    scope TEXT NOT NULL, key TEXT NOT NULL, request_hash TEXT NOT NULL,
                    response BLOB, created_at REAL NOT NULL, PRIMARY KEY (scope, key))
                """)
        }
    }

    func begin(scope: String, key: String, requestHash: String) async throws -> Start {
        let now = Date().timeIntervalSince1970
        return try await queue.write { [retention] db in
            try db.execute(sql: "DELETE FROM idempotency WHERE created_at < ?", arguments: [now - retention])
            if let row = try Row.fetchOne(db, sql: "SELECT request_hash, response FROM idempotency WHERE scope = ? AND key = ?", arguments: [scope, key]) {
                guard row["request_hash"] as String == requestHash else { return .differentRequest }
                guard let data = row["response"] as Data? else { return .inProgress }
                return .replay(try JSONDecoder().decode(StoredResponse.self, from: data))
            }
            try db.execute(sql: "INSERT INTO idempotency (scope, key, request_hash, created_at) VALUES (?, ?, ?, ?)",
                           arguments: [scope, key, requestHash, now])
            return .started
        }
    }

    func finish(scope: String, key: String, response: StoredResponse) async throws {
        let data = try JSONEncoder().encode(response)
        try await queue.write { db in
            try db.execute(sql: "UPDATE idempotency SET response = ? WHERE scope = ? AND key = ?", arguments: [data, scope, key])
        }
    }

    func abandon(scope: String, key: String) async throws {
        try await queue.write { db in
            try db.execute(sql: "DELETE FROM idempotency WHERE scope = ? AND key = ? AND response IS NULL", arguments: [scope, key])
        }
    }
}

extension AppRequestContext {
    /// A stable event id for the request's `Idempotency-Key` (and `salt`), so a retried
    /// command appends the same ids and the log returns the first result.
    public func idempotentEventId(_ key: String?, salt: String = "") -> UUID {
        guard let key else { return UUID() }
        let digest = SHA256.hash(data: Data("\(identity?.accountId.uuidString ?? "anonymous")|\(key)|\(salt)".utf8))
        var bytes = Array(digest.prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50  // version 5 layout
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
