import Contracts
import EventLog
import Foundation
import GRDB
import ReadModel
import ServiceKit
import Testing

/// `LiveSessions` on a real read-model file: what it remembers, and what makes it read again.
@Suite("live sessions, remembered between revocations")
struct LiveSessionsTests {
    private func recorded<E: EventContract>(_ event: E) throws -> RecordedEvent {
        let new = try EventCatalog.encode(event)
        return RecordedEvent(
            checkpoint: .start, stream: "session-x", version: 1, id: new.id, type: new.type,
            schemaVersion: new.schemaVersion, data: new.data, metadata: new.metadata, recordedAt: Date())
    }

    private func member() -> Identity { Identity(accountId: UUID(), sessionId: UUID(), role: .member) }

    @Test("a session found live is read again only after a revocation or an account deletion is committed, or a new file is swapped in")
    func remembersUntilARevocation() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("commons-live-sessions-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sessions = LiveSessions()
        let projection = RevocationProjection(liveSessions: sessions)
        let readModel = try ReadModelDatabase(directory: directory, name: "auth", projections: [projection])
        let revokeBehindItsBack = { (identity: Identity, pool: DatabasePool) in
            try await pool.write { db in
                try db.execute(sql: "INSERT INTO revoked_sessions (session_id) VALUES (?)", arguments: [identity.sessionId.uuidString.lowercased()])
            }
        }

        let first = member()
        #expect(try await sessions.isRevoked(first, in: readModel) == false)
        // A row the projection did not write is not seen: the session is remembered.
        try await revokeBehindItsBack(first, readModel.pool)
        #expect(try await sessions.isRevoked(first, in: readModel) == false)
        // The projection commits another session's revocation: every session is read again.
        try await readModel.pool.write { db in
            try projection.apply(try recorded(SessionRevoked(sessionId: UUID(), accountId: UUID(), reason: "logout", at: Date())), in: db)
        }
        #expect(try await sessions.isRevoked(first, in: readModel) == true)

        let second = member()
        #expect(try await sessions.isRevoked(second, in: readModel) == false)
        try await readModel.pool.write { db in
            try projection.apply(try recorded(AccountDeleted(accountId: second.accountId, deletedAt: Date())), in: db)
        }
        #expect(try await sessions.isRevoked(second, in: readModel) == true)

        // A revocation rolled back forgets nothing.
        let third = member()
        #expect(try await sessions.isRevoked(third, in: readModel) == false)
        try await revokeBehindItsBack(third, readModel.pool)
        await #expect(throws: (any Error).self) {
            try await readModel.pool.write { db in
                try projection.apply(try recorded(SessionRevoked(sessionId: UUID(), accountId: UUID(), reason: "logout", at: Date())), in: db)
                throw CancellationError()
            }
        }
        #expect(try await sessions.isRevoked(third, in: readModel) == false)

        // A file rebuilt elsewhere and swapped in is read afresh, though nothing was committed here.
        let rebuilt = readModel.newFilePath()
        let pool = try ReadModelDatabase.open(path: rebuilt, projections: [RevocationProjection()])
        try await revokeBehindItsBack(third, pool)
        try pool.close()
        try readModel.swap(to: rebuilt)
        #expect(try await sessions.isRevoked(third, in: readModel) == true)
    }

    @Test("past its capacity it starts over, and still answers from the read model")
    func capacity() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("commons-live-sessions-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sessions = LiveSessions(capacity: 2)
        let readModel = try ReadModelDatabase(directory: directory, name: "auth", projections: [RevocationProjection(liveSessions: sessions)])
        let people = (0..<3).map { _ in member() }
        for person in people { #expect(try await sessions.isRevoked(person, in: readModel) == false) }
        try await readModel.pool.write { db in
            for person in people {
                try db.execute(sql: "INSERT INTO revoked_sessions (session_id) VALUES (?)", arguments: [person.sessionId.uuidString.lowercased()])
            }
        }
        // The third filled it: the first two were forgotten and are read again; the third is remembered.
        #expect(try await sessions.isRevoked(people[0], in: readModel) == true)
        #expect(try await sessions.isRevoked(people[1], in: readModel) == true)
        #expect(try await sessions.isRevoked(people[2], in: readModel) == false)
    }
}
