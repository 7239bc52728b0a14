import GRDB
import GRDBSQLite

/// A statement's parameters, bound one after another straight to SQLite (see
/// `Statement.forEach(binding:_:)`): integers, floating-point numbers and text.
public struct SQLiteParameters: ~Copyable {
    private let statement: SQLiteStatement
    private var next: Int32 = 1
    private var failure: Int32 = SQLITE_OK

    private init(_ statement: SQLiteStatement) { self.statement = statement }

    /// Binds the next parameter to an integer.
    public mutating func bind(_ value: Int64) { check(sqlite3_bind_int64(statement, next, value)) }

    /// Binds the next parameter to a floating-point number.
    public mutating func bind(_ value: Double) { check(sqlite3_bind_double(statement, next, value)) }

    /// Binds the next parameter to text, which SQLite copies.
    public mutating func bind(_ value: String) { check(sqlite3_bind_text(statement, next, value, -1, SQLITE_TRANSIENT)) }

    private mutating func check(_ code: Int32) {
        if failure == SQLITE_OK { failure = code }
        next += 1
    }

    /// Resets `statement`, clears its parameters and binds them with `bind`; throws when a
    /// value could not be bound or their number is not the statement's.
    static func bind(_ statement: Statement, _ bind: (inout SQLiteParameters) -> Void) throws {
        let sqliteStatement = statement.sqliteStatement
        sqlite3_reset(sqliteStatement) // a failure of the last step, already reported then
        sqlite3_clear_bindings(sqliteStatement)
        var parameters = SQLiteParameters(sqliteStatement)
        bind(&parameters)
        if parameters.failure != SQLITE_OK {
            throw DatabaseError(resultCode: ResultCode(rawValue: parameters.failure), message: "could not bind a parameter", sql: statement.sql)
        }
        let expected = sqlite3_bind_parameter_count(sqliteStatement)
        guard parameters.next - 1 == expected else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "\(parameters.next - 1) values for \(expected) parameters", sql: statement.sql)
        }
    }
}

/// SQLite's marker that it must copy bound text before the call returns.
private let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
