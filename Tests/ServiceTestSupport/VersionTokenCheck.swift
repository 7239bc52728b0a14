import GRDB
import ReadModel

/// Holds a read model's `VersionToken` to its promise, on the service's real read model.
public enum VersionTokenCheck {
    /// The statements that broke it: each of `writes`, run in a transaction of its own, must
    /// leave a token never seen before, visible inside that transaction; `unrelated`, run
    /// together, must leave the token as it was. Empty when all is well.
    public static func failures(of token: VersionToken, in pool: DatabasePool, writes: [String], unrelated: [String]) async throws -> [String] {
        var failures: [String] = []
        var seen: Set<Int64> = []
        for sql in writes {
            let (before, after) = try await pool.write { db in
                (
                    try token.current(in: db),
                    try {
                        try db.execute(sql: sql); return try token.current(in: db)
                    }()
                )
            }
            if before == nil || after == nil || before == after || seen.contains(after ?? 0) { failures.append(sql) }
            if let after { seen.insert(after) }
        }
        let (before, after) = try await pool.write { db in
            (
                try token.current(in: db),
                try {
                    try unrelated.forEach { try db.execute(sql: $0) }; return try token.current(in: db)
                }()
            )
        }
        if before == nil || before != after { failures += unrelated }
        return failures
    }
}
