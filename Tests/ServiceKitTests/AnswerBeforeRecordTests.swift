import EventLog
import EventLogSQLite
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

@testable import ServiceKit

/// The first answer to an `Idempotency-Key` goes to the caller before its record is stored:
/// storing it is off the caller's wait, and a retry that reaches the same process meanwhile
/// waits for the record rather than being told the first request still runs.
@Suite("idempotency: the answer before its record")
struct AnswerBeforeRecordTests {
    /// Real records whose `finish` waits until the test lets it, or fails.
    final class HeldRecords: IdempotencyRecords {
        let base: any IdempotencyRecords
        /// How many `finish` calls fail before the rest store (`.max`: all fail).
        let failures: Int
        private let held = Mutex<[CheckedContinuation<Void, Never>]>([])
        private let released = Atomic(false)
        let finishes = Atomic(0)

        init(_ base: any IdempotencyRecords, failures: Int = 0) {
            self.base = base
            self.failures = failures
        }

        func claim(scope: String, key: String, requestHash: String, now: Date, leaseUntil: Date) async throws -> IdempotencyClaim {
            try await base.claim(scope: scope, key: key, requestHash: requestHash, now: now, leaseUntil: leaseUntil)
        }

        func finish(scope: String, key: String, response: Data) async throws {
            await withCheckedContinuation { continuation in
                let now = held.withLock { held -> Bool in
                    if released.load(ordering: .relaxed) { return true }
                    held.append(continuation)
                    return false
                }
                if now { continuation.resume() }
            }
            if finishes.add(1, ordering: .relaxed).newValue <= failures { throw CancellationError() }
            try await base.finish(scope: scope, key: key, response: response)
        }

        /// Lets every held and later `finish` go on.
        func release() {
            let waiting = held.withLock { held in
                released.store(true, ordering: .relaxed)
                defer { held.removeAll() }
                return held
            }
            for continuation in waiting { continuation.resume() }
        }

        func release(scope: String, key: String) async throws { try await base.release(scope: scope, key: key) }
        func purge(before cutoff: Date) async throws -> Int { try await base.purge(before: cutoff) }
        func forget(caller: String) async throws -> Int { try await base.forget(caller: caller) }
    }

    private func application(_ records: HeldRecords) -> some ApplicationProtocol {
        let router = Router(context: AppRequestContext.self)
        router.middlewares.add(IdempotencyMiddleware(records: records, service: "test"))
        let made = Atomic(0)
        router.post("/v1/things") { _, _ -> Response in
            let number = made.add(1, ordering: .relaxed).newValue
            return Response(
                status: .created, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"thing":\#(number)}"#)))
        }
        return Application(router: router)
    }

    private func records() throws -> any IdempotencyRecords {
        try SQLiteIdempotencyRecords(path: FileManager.default.temporaryDirectory.appendingPathComponent("commons-answer-\(UUID()).idempotency").path)
    }

    @Test("the caller has the answer while its record is still being stored; a retry meanwhile gets that answer once it is stored")
    func answerFirst() async throws {
        let held = HeldRecords(try records())
        try await application(held).test(.live) { client in
            // Were the answer to wait for its record, it would come only after this lets the
            // record go, and fail below; long after the answer comes on any machine.
            let backstop = Task {
                try await Task.sleep(for: .seconds(60)); held.release()
            }
            defer { backstop.cancel() }
            let headers: HTTPFields = [.idempotencyKey: "first-answer", .contentType: "application/json"]
            let first = try await client.execute(uri: "/v1/things", method: .post, headers: headers, body: ByteBuffer(string: "{}"))
            #expect(first.status == .created)
            #expect(String(buffer: first.body) == #"{"thing":1}"#)
            #expect(held.finishes.load(ordering: .relaxed) == 0, "answered before the record was stored")

            async let retry = client.execute(uri: "/v1/things", method: .post, headers: headers, body: ByteBuffer(string: "{}"))
            try await Task.sleep(for: .milliseconds(100))
            held.release()
            let replayed = try await retry
            #expect(replayed.status == .created)
            #expect(String(buffer: replayed.body) == #"{"thing":1}"#, "the first answer, not a second thing")
            #expect(replayed.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
        }
    }

    @Test("a record that cannot be stored leaves the first answer as it was, and the key held: a retry is told the first still runs")
    func recordNotStored() async throws {
        let held = HeldRecords(try records(), failures: .max)
        held.release()
        try await application(held).test(.live) { client in
            let headers: HTTPFields = [.idempotencyKey: "lost-record", .contentType: "application/json"]
            let first = try await client.execute(uri: "/v1/things", method: .post, headers: headers, body: ByteBuffer(string: "{}"))
            #expect(first.status == .created)
            #expect(String(buffer: first.body) == #"{"thing":1}"#)
            let retry = try await client.execute(uri: "/v1/things", method: .post, headers: headers, body: ByteBuffer(string: "{}"))
            #expect(retry.status == .conflict)
            #expect(retry.headers[.retryAfter] == "1")
        }
    }

    @Test("a record whose store fails twice is stored on a later try: a retry gets the first answer")
    func recordStoredOnRetry() async throws {
        let held = HeldRecords(try records(), failures: 2)
        held.release()
        try await application(held).test(.live) { client in
            let headers: HTTPFields = [.idempotencyKey: "busy-store", .contentType: "application/json"]
            let first = try await client.execute(uri: "/v1/things", method: .post, headers: headers, body: ByteBuffer(string: "{}"))
            #expect(first.status == .created)
            let retry = try await client.execute(uri: "/v1/things", method: .post, headers: headers, body: ByteBuffer(string: "{}"))
            #expect(retry.status == .created)
            #expect(String(buffer: retry.body) == #"{"thing":1}"#)
            #expect(held.finishes.load(ordering: .relaxed) == 3)
        }
    }
}
