import Backoff
import Codecs
import Crypto
import EventLog
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// `Idempotency-Key` on POST: the first response to a key is stored (status, headers and
/// body) and returned again for a retry with the same key and body; the same key with a
/// different body gets 422, and a retry while the first is still running gets 409 with
/// `Retry-After`.
///
/// Keys are scoped to the service and the caller (account, or anonymous) and kept for 24
/// hours in the store beside the log (``IdempotencyRecords``), so every replica finds them:
/// under a hash of the key, the answer sealed with a key derived from it (``IdempotencySeal``).
/// A running request holds its key for a lease of ``lease`` (the request deadline and a
/// little more): if its process dies, or PostgreSQL was down when it should have given the
/// key up, a retry after the lease runs again rather than being refused for a day. A request that fails
/// (an error, or a 5xx) gives its key up, so a retry runs again; commands whose effect could
/// already be in the log by then also derive their ids from the key (see
/// ``AppRequestContext/idempotentEventId(_:salt:)``), so the log refuses a second effect.
struct IdempotencyMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let records: any IdempotencyRecords
    let service: String
    /// Larger limits of routes that take uploads, by path; JSON's otherwise.
    var bodyLimits: [String: Int] = [:]
    /// How long a running request holds its key: a little longer than the request deadline,
    /// after which no handler can still be running it.
    var lease: TimeInterval = 35
    /// How long a first answer is kept.
    static let retention: TimeInterval = 24 * 3600
    /// How often a first answer's record is tried before the key is left to its lease.
    static let finishAttempts = 5
    private let purges = PurgeSchedule()
    private let finishing = FinishingRecords()

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .post, let key = request.headers[.idempotencyKey] else { return try await next(request, context) }
        guard (1...255).contains(key.count) else {
            throw Problem.validation(["Idempotency-Key": ["must be 1 to 255 characters"]], detail: "The Idempotency-Key header is invalid.")
        }
        var request = request
        let body = try await request.readBody(upTo: bodyLimits[request.uri.path] ?? context.maxUploadSize)
        request.body = RequestBody(buffer: body)
        let scope = "\(service) \(context.identity?.accountId.lowercasedText ?? "anonymous") \(request.method) \(request.uri.path)"
        let seal = IdempotencySeal(idempotencyKey: key, scope: scope)
        let storedKey = seal.storedKey
        let hash = SHA256.hash(data: Data(body.readableBytesView)).lowercaseHex
        let now = Date()
        if purges.isDue() { _ = try? await records.purge(before: now.addingTimeInterval(-Self.retention)) }

        var claim = try await records.claim(scope: scope, key: storedKey, requestHash: hash, now: now, leaseUntil: now.addingTimeInterval(lease))
        if case .inProgress = claim, let answered = finishing.pending(scope: scope, key: storedKey) {
            // Answered here a moment ago, its record still being stored: the retry gets the answer.
            await answered.value
            claim = try await records.claim(scope: scope, key: storedKey, requestHash: hash, now: now, leaseUntil: now.addingTimeInterval(lease))
        }
        switch claim {
        case .inProgress:
            throw Problem(
                .conflict, type: "idempotency-in-progress", detail: "A request with this Idempotency-Key is still being processed.",
                headers: ["Retry-After": "1"])
        case .differentRequest:
            throw Problem(
                .unprocessableContent, type: "idempotency-key-reused",
                detail: "This Idempotency-Key was used with a different request body.")
        case .replay(let data):
            guard let opened = try? seal.open(data) else {
                throw Problem(
                    .conflict, type: "idempotency-record-unreadable",
                    detail: "The first answer to this Idempotency-Key cannot be replayed; send the request with a new key.")
            }
            let stored = try JSONDecoder().decode(StoredResponse.self, from: opened)
            var headers = HTTPFields()
            for (name, value) in stored.headers { if let field = HTTPField.Name(name) { headers[field] = value } }
            headers[HTTPField.Name("Idempotent-Replayed")!] = "true"
            return Response(status: .init(code: stored.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: stored.body)))
        case .claimed:
            break
        }
        let response: Response
        do {
            response = try await next(request, context)
        } catch {
            try? await records.release(scope: scope, key: storedKey)
            throw error
        }
        guard response.status.code < 500 else {
            try? await records.release(scope: scope, key: storedKey)
            return response
        }
        let collector = BodyCollector()
        try await response.body.write(collector)
        let bytes = collector.bytes
        var headers: [String: String] = [:]
        for field in response.headers where field.name != .contentLength { headers[field.name.rawName] = field.value }
        let sealed = try seal.seal(StoredResponse(status: response.status.code, headers: headers, body: bytes).json())
        // Stored beside the answer, off the caller's wait, and whatever becomes of the
        // connection. A store that fails (a busy PostgreSQL) is tried again: given up, it
        // leaves the key held until its lease ends, as a process that dies here would, and a
        // retry meanwhile gets 409.
        finishing.store(scope: scope, key: storedKey) { [records, logger = context.logger] in
            var pauses = Backoff(initial: .milliseconds(50), maximum: .seconds(1)).attempts()
            for attempt in 1...Self.finishAttempts {
                do {
                    return try await records.finish(scope: scope, key: storedKey, response: sealed)
                } catch {
                    guard attempt < Self.finishAttempts else {
                        return logger.warning(
                            "an idempotency record could not be stored; its key stays held until its lease ends", metadata: ["error": "\(error)"])
                    }
                    try? await Task.sleep(for: pauses.next())
                }
            }
        }
        var answered = response
        answered.body = .init(byteBuffer: ByteBuffer(bytes: bytes))
        return answered
    }

    /// A first answer as stored.
    struct StoredResponse: Codable, Sendable, Equatable {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]

        /// The JSON `JSONEncoder` writes for it (the body an array of numbers), written
        /// directly: through `Encodable`, each byte of the body was a boxed value, a twentieth
        /// of a post's CPU time in the listings service.
        func json() -> Data {
            var out: [UInt8] = []
            out.reserveCapacity(body.count * 4 + 256)
            out.append(contentsOf: #"{"body":["#.utf8)
            for (index, byte) in body.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                if byte >= 100 { out.append(UInt8(ascii: "0") + byte / 100) }
                if byte >= 10 { out.append(UInt8(ascii: "0") + byte / 10 % 10) }
                out.append(UInt8(ascii: "0") + byte % 10)
            }
            out.append(contentsOf: #"],"headers":{"#.utf8)
            for (index, (name, value)) in headers.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out.appendJSONString(name)
                out.append(UInt8(ascii: ":"))
                out.appendJSONString(value)
            }
            out.append(contentsOf: #"},"status":"#.utf8)
            out.append(contentsOf: String(status).utf8)
            out.append(UInt8(ascii: "}"))
            return Data(out)
        }
    }
}

/// Says when to purge expired records: on one claim in 500, so no request pays often.
private final class PurgeSchedule: Sendable {
    private let claims = Atomic<Int>(0)

    func isDue() -> Bool { claims.wrappingAdd(1, ordering: .relaxed).oldValue % 500 == 0 }
}

/// The first answers this process has sent whose records are still being stored, so that a
/// retry arriving here meanwhile waits for the record rather than being told the first
/// request is still running. (A retry at another replica in that moment gets 409 and
/// `Retry-After`, as any retry of a running request does.)
private final class FinishingRecords: Sendable {
    private let pending = Mutex<[String: Task<Void, Never>]>([:])

    /// Starts storing a record in a task of its own (neither the request's end nor its
    /// connection's cancels it), known to ``pending(scope:key:)`` until it is done.
    func store(scope: String, key: String, _ body: @escaping @Sendable () async -> Void) {
        let name = scope + " " + key
        // Under the lock, so that the task's own removal comes after its insertion.
        pending.withLock { pending in
            pending[name] = Task { [self] in
                await body()
                _ = self.pending.withLock { $0.removeValue(forKey: name) }
            }
        }
    }

    /// The store of the record under way for this key, if any.
    func pending(scope: String, key: String) -> Task<Void, Never>? {
        pending.withLock { $0[scope + " " + key] }
    }
}

/// Gathers a response body so that it can be stored.
private final class BodyCollector: ResponseBodyWriter, @unchecked Sendable {
    private(set) var bytes: [UInt8] = []

    func write(_ buffer: ByteBuffer) async throws { bytes += buffer.readableBytesView }
    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

extension AppRequestContext {
    /// A stable event id for the request's `Idempotency-Key` (and `salt`), so a retried
    /// command appends the same ids and the log returns the first result.
    public func idempotentEventId(_ key: String?, salt: String = "") -> UUID {
        guard let key else { return .random() }
        return NameBasedID.make("\(identity?.accountId.uuidString ?? "anonymous")|\(key)|\(salt)", version: .v5)
    }
}
