import Contracts
import EventLog
import Foundation
import GRDB
import ReadModel

/// Every service's record of revoked sessions and deleted accounts, built from the log,
/// so that their tokens stop working there as soon as the service has read the event.
public struct RevocationProjection: Projection {
    /// Its name in every service.
    public static let projectionName = "revocations"
    public let name = RevocationProjection.projectionName
    public let filter = EventFilter(categories: Revocation.categories, types: Revocation.eventTypes)

    /// Told after each commit that wrote a revocation or a deleted account.
    private let liveSessions: LiveSessions?

    /// `liveSessions`, when given, forgets what it remembers whenever this projection commits
    /// a revocation (a rebuild, which nothing serves from, needs none).
    public init(liveSessions: LiveSessions? = nil) {
        self.liveSessions = liveSessions
    }

    public func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("revocations-v1") { db in
            try db.execute(sql: "CREATE TABLE revoked_sessions (session_id TEXT PRIMARY KEY)")
            try db.execute(sql: "CREATE TABLE deleted_accounts (account_id TEXT PRIMARY KEY)")
        }
    }

    public func apply(_ event: RecordedEvent, in db: Database) throws {
        if let liveSessions {
            db.afterNextTransaction { _ in liveSessions.revocationCommitted() }
        }
        switch try CommonsEvents.catalog.decode(event).flatMap(Revocation.init) {
        case .session(let sessionId):
            try db.executeCached(sql: "INSERT OR IGNORE INTO revoked_sessions (session_id) VALUES (?)", arguments: [sessionId.lowercasedText])
        case .account(let accountId):
            try db.executeCached(sql: "INSERT OR IGNORE INTO deleted_accounts (account_id) VALUES (?)", arguments: [accountId.lowercasedText])
        case nil:
            break
        }
    }

    /// Whether tokens of this identity must be refused. Every authenticated request asks, so
    /// the statement is compiled once per connection.
    public static func isRevoked(_ identity: Identity, in pool: DatabasePool) async throws -> Bool {
        try await pool.read { db in
            try Bool.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT EXISTS (SELECT 1 FROM revoked_sessions WHERE session_id = ?)
                            OR EXISTS (SELECT 1 FROM deleted_accounts WHERE account_id = ?)
                        """), arguments: [identity.sessionId.lowercasedText, identity.accountId.lowercasedText]) ?? false
        }
    }
}
