import EventLog
import EventLogPostgres
import EventLogSQLite
import EventLogTestSupport
import Foundation
import Testing

@Suite("idempotency records beside the log")
struct IdempotencyRecordsTests {
    private func records(of log: TestLog) throws -> any IdempotencyRecords {
        if let file = log.sqliteFile { return try SQLiteIdempotencyRecords(path: file + ".idempotency") }
        guard let postgres = log.store as? PostgresEventStore else { throw TestSetupError("no records for \(type(of: log.store))") }
        return PostgresIdempotencyRecords(store: postgres)
    }

    @Test(
        "a key is claimed once; its first answer is replayed; another body is refused; a lapsed claim is taken over",
        arguments: Backend.allCases)
    func lifecycle(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let records = try records(of: log)
        let now = Date(timeIntervalSince1970: 1_900_000_000)
        let lease = now.addingTimeInterval(60)
        #expect(try await records.claim(scope: "s", key: "k", requestHash: "h", now: now, leaseUntil: lease) == .claimed)
        #expect(try await records.claim(scope: "s", key: "k", requestHash: "h", now: now.addingTimeInterval(1), leaseUntil: lease) == .inProgress)
        #expect(try await records.claim(scope: "s", key: "k", requestHash: "other", now: now, leaseUntil: lease) == .differentRequest)
        #expect(try await records.claim(scope: "other scope", key: "k", requestHash: "h", now: now, leaseUntil: lease) == .claimed)
        // The process that held the claim died: after the lease a retry runs again, once.
        let later = now.addingTimeInterval(61)
        #expect(try await records.claim(scope: "s", key: "k", requestHash: "h", now: later, leaseUntil: later.addingTimeInterval(60)) == .claimed)
        #expect(try await records.claim(scope: "s", key: "k", requestHash: "h", now: later, leaseUntil: later.addingTimeInterval(60)) == .inProgress)
        try await records.finish(scope: "s", key: "k", response: Data("first".utf8))
        #expect(try await records.claim(scope: "s", key: "k", requestHash: "h", now: later, leaseUntil: lease) == .replay(Data("first".utf8)))
        // A released claim (the request failed without effect) lets a retry run again.
        try await records.release(scope: "other scope", key: "k")
        #expect(try await records.claim(scope: "other scope", key: "k", requestHash: "h", now: now, leaseUntil: lease) == .claimed)
        #expect(try await records.purge(before: now.addingTimeInterval(1)) == 2)
        #expect(try await records.claim(scope: "s", key: "k", requestHash: "h", now: later, leaseUntil: lease) == .claimed)
        await log.close()
    }

    @Test("forgetting a caller removes its records in every service and no one else's", arguments: Backend.allCases)
    func forgetCaller(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let records = try records(of: log)
        let now = Date(timeIntervalSince1970: 1_900_000_000)
        let (gone, kept) = ("0b8f0c9e-7d0e-4e21-9d7a-3d7b0d1f2a11", "5c2d7f4e-1a3b-4c5d-8e9f-0a1b2c3d4e5f")
        let scopes = [
            "listings \(gone) POST /v1/listings", "donations \(gone) POST /v1/donations", "listings \(kept) POST /v1/listings",
            "accounts anonymous POST /v1/accounts",
        ]
        for scope in scopes {
            #expect(try await records.claim(scope: scope, key: "k", requestHash: "h", now: now, leaseUntil: now.addingTimeInterval(60)) == .claimed)
            try await records.finish(scope: scope, key: "k", response: Data("answer".utf8))
        }
        #expect(try await records.forget(caller: gone) == 2)
        #expect(try await records.forget(caller: "%") == 0, "a wildcard is no caller")
        for scope in scopes {
            let again = try await records.claim(scope: scope, key: "k", requestHash: "h", now: now, leaseUntil: now.addingTimeInterval(60))
            #expect(again == (scope.contains(gone) ? .claimed : .replay(Data("answer".utf8))), "\(scope)")
        }
        await log.close()
    }

    @Test("of 20 concurrent claims of one key, exactly one wins", arguments: Backend.allCases)
    func concurrentClaims(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let records = try records(of: log)
        let now = Date()
        let outcomes = try await withThrowingTaskGroup(of: IdempotencyClaim.self) { group in
            for _ in 0..<20 {
                group.addTask { try await records.claim(scope: "race", key: "k", requestHash: "h", now: now, leaseUntil: now.addingTimeInterval(60)) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 == .claimed }.count == 1)
        #expect(outcomes.filter { $0 == .inProgress }.count == 19)
        await log.close()
    }
}
