import Foundation
import NIOCore
import PostgresNIO

// The key vault's hot statements, prepared once per connection: every post seals with its
// owner's key, and every read of personal data opens with one. Unqualified names: the
// store's connections have `search_path` set to its schema.

/// Stores a key for an owner who has none, and answers the owner's key either way: the
/// candidate, the one stored before, or NULL for a destroyed key. No row when another
/// statement stored one after this one's snapshot was taken.
struct StoreKeyIfAbsentStatement: PostgresPreparedStatement {
    static let name = "commons_key_store_if_absent"
    static let sql = """
        WITH inserted AS (
            INSERT INTO personal_data_keys (owner, material) VALUES ($1, $2)
            ON CONFLICT (owner) DO NOTHING RETURNING material)
        SELECT material FROM inserted
        UNION ALL SELECT material FROM personal_data_keys WHERE owner = $1
        LIMIT 1
        """
    typealias Row = ByteBuffer?

    var owner: UUID
    var candidate: ByteBuffer

    func makeBindings() -> PostgresBindings { .of(owner, candidate) }

    func decodeRow(_ row: PostgresRow) throws -> ByteBuffer? { try row.decode(ByteBuffer?.self) }
}

/// An owner's stored key: a row with NULL for a destroyed key, none for no key yet.
struct StoredKeyStatement: PostgresPreparedStatement {
    static let name = "commons_key_stored"
    static let sql = "SELECT material FROM personal_data_keys WHERE owner = $1"
    typealias Row = ByteBuffer?

    var owner: UUID

    func makeBindings() -> PostgresBindings { .of(owner) }

    func decodeRow(_ row: PostgresRow) throws -> ByteBuffer? { try row.decode(ByteBuffer?.self) }
}

/// The stored keys of some owners: a row for each owner with a key or a tombstone (NULL).
struct StoredKeysStatement: PostgresPreparedStatement {
    static let name = "commons_keys_stored"
    static let sql = "SELECT owner, material FROM personal_data_keys WHERE owner = ANY($1)"
    typealias Row = (UUID, ByteBuffer?)

    var owners: [UUID]

    func makeBindings() -> PostgresBindings { .of(owners) }

    func decodeRow(_ row: PostgresRow) throws -> (UUID, ByteBuffer?) { try row.decode((UUID, ByteBuffer?).self) }
}
