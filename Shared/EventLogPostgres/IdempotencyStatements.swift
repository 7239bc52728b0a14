import Foundation
import NIOCore
import PostgresNIO

// The statements every idempotent POST runs (a claim, then a finish or a release), prepared
// once per connection like the log's own. Unqualified names: the store's connections have
// `search_path` set to its schema.
//
// Each commits without waiting for its WAL to reach the disk (`synchronous_commit` off for
// its own transaction only, through `set_config(…, true)` in the statement): two of a post's
// three commits, and under load most of its time in PostgreSQL, were these waits. What a
// crash of PostgreSQL can lose is the last fraction of a second of them, and no answer
// depends on it:
// - a claim is on disk before anything the request appends, for WAL is written in order and
//   that append's commit waits for all of it; a claim lost with nothing after it was a
//   request that did nothing;
// - a lost finish or release leaves the key claimed until its lease ends, and a retry then
//   runs again, as when the process dies between its append and its finish: the commands
//   whose effect is in the log derive their event ids from the key, so the log refuses a
//   second effect.

/// Claims a key: inserts a new claim, or takes over a lapsed one of the same request.
/// Answers one row when the claim is the caller's, none otherwise.
struct ClaimIdempotencyStatement: PostgresPreparedStatement {
    static let name = "commons_idempotency_claim"
    static let sql = """
        INSERT INTO idempotency_records AS r (scope, key, request_hash, created_at, lease_until)
        SELECT $1, $2, $3, $4, $5 FROM \(unsynchronized)
        ON CONFLICT (scope, key) DO UPDATE SET lease_until = excluded.lease_until
            WHERE r.response IS NULL AND r.lease_until < $4 AND r.request_hash = excluded.request_hash
        RETURNING true
        """
    typealias Row = Bool

    var scope: String
    var key: String
    var requestHash: String
    var now: Date
    var leaseUntil: Date

    func makeBindings() -> PostgresBindings { .of(scope, key, requestHash, now, leaseUntil) }

    func decodeRow(_ row: PostgresRow) throws -> Bool { try row.decode(Bool.self) }
}

/// A key's record as it stands: the request's hash, and the first answer once there is one.
struct IdempotencyRecordStatement: PostgresPreparedStatement {
    static let name = "commons_idempotency_record"
    static let sql = "SELECT request_hash, response FROM idempotency_records WHERE scope = $1 AND key = $2"
    typealias Row = (hash: String, response: ByteBuffer?)

    var scope: String
    var key: String

    func makeBindings() -> PostgresBindings { .of(scope, key) }
    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode((String, ByteBuffer?).self) }
}

/// Stores the first answer to a claimed key.
struct FinishIdempotencyStatement: PostgresPreparedStatement {
    static let name = "commons_idempotency_finish"
    static let sql = "UPDATE idempotency_records SET response = $3 FROM \(unsynchronized) WHERE scope = $1 AND key = $2 RETURNING true"
    typealias Row = Bool

    var scope: String
    var key: String
    var response: ByteBuffer

    func makeBindings() -> PostgresBindings { .of(scope, key, response) }

    func decodeRow(_ row: PostgresRow) throws -> Bool { try row.decode(Bool.self) }
}

/// Gives up a claim that has no answer, so that a retry runs again.
struct ReleaseIdempotencyStatement: PostgresPreparedStatement {
    static let name = "commons_idempotency_release"
    static let sql = """
        DELETE FROM idempotency_records USING \(unsynchronized) WHERE scope = $1 AND key = $2 AND response IS NULL RETURNING true
        """
    typealias Row = Bool

    var scope: String
    var key: String

    func makeBindings() -> PostgresBindings { .of(scope, key) }
    func decodeRow(_ row: PostgresRow) throws -> Bool { try row.decode(Bool.self) }
}

/// A row source that turns `synchronous_commit` off for the statement's own transaction
/// (`set_config`'s `is_local`); the connection's next statement commits synchronously again.
private let unsynchronized = "(SELECT set_config('synchronous_commit', 'off', true)) unsynchronized"
