import Codecs
import Foundation
import GRDB
import GRDBSQLite

/// The current row of a statement stepping through its results, read column by column
/// straight from SQLite, each column as the one type the caller knows it has.
///
/// For the hot pages of a service (issue 17): GRDB's `row[i]` decodes through generic code
/// whose type metadata the Swift runtime looks up on every call, and `Row.fetchAll` copies
/// every cell of every row first; the two were a sixth of a feed request. Valid only until
/// the statement steps again. A column's index is its position in the `SELECT`.
public struct SQLiteColumns: ~Copyable {
    private let statement: SQLiteStatement

    fileprivate init(_ statement: SQLiteStatement) { self.statement = statement }

    /// Whether the column is NULL.
    public func isNull(_ index: Int32) -> Bool { sqlite3_column_type(statement, index) == SQLITE_NULL }

    /// The column as an integer (0 for NULL).
    public func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(statement, index) }

    /// The column as an integer, nil for NULL.
    public func optionalInt64(_ index: Int32) -> Int64? { isNull(index) ? nil : int64(index) }

    /// The column as a floating-point number (0 for NULL).
    public func double(_ index: Int32) -> Double { sqlite3_column_double(statement, index) }

    /// The column as a floating-point number, nil for NULL.
    public func optionalDouble(_ index: Int32) -> Double? { isNull(index) ? nil : double(index) }

    /// The column as text ("" for NULL).
    public func text(_ index: Int32) -> String { withUTF8(index) { String(decoding: $0, as: UTF8.self) } }

    /// The column as text, nil for NULL.
    public func optionalText(_ index: Int32) -> String? { isNull(index) ? nil : text(index) }

    /// The column's text as UTF-8 bytes, without making a `String` (empty for NULL).
    public func withUTF8<T>(_ index: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        // sqlite3_column_text before sqlite3_column_bytes, as SQLite's documentation asks.
        guard let start = sqlite3_column_text(statement, index) else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeRawBufferPointer(start: start, count: Int(sqlite3_column_bytes(statement, index))))
    }

    /// The column as an id written as text; nil for NULL or anything else.
    public func uuid(_ index: Int32) -> UUID? { withUTF8(index) { UUID(utf8: $0) } }
}

extension Statement {
    /// Runs the statement with `arguments` and makes one value of each row with `make`.
    public func map<T>(arguments: StatementArguments = StatementArguments(), _ make: (borrowing SQLiteColumns) throws -> T) throws -> [T] {
        var values: [T] = []
        try forEach(arguments: arguments) { values.append(try make($0)) }
        return values
    }

    /// Runs the statement with the parameters `bind` binds (see ``forEach(binding:_:)``) and
    /// makes one value of each row with `make`.
    public func map<T>(binding bind: (inout SQLiteParameters) -> Void, _ make: (borrowing SQLiteColumns) throws -> T) throws -> [T] {
        var values: [T] = []
        try forEach(binding: bind) { values.append(try make($0)) }
        return values
    }

    /// Runs the statement with `arguments` and calls `body` with each row.
    public func forEach(arguments: StatementArguments = StatementArguments(), _ body: (borrowing SQLiteColumns) throws -> Void) throws {
        try withoutActuallyEscaping(body) { body in
            try ColumnsCursor(statement: self, arguments: arguments, make: body).forEach { _ in }
        }
    }

    /// Runs the statement with the parameters `bind` binds, in order, straight to SQLite, and
    /// calls `body` with each row. Throws when `bind` binds fewer or more values than the
    /// statement has parameters.
    ///
    /// For statements run many times a request (issue 17): `StatementArguments` turns every
    /// value into a `DatabaseValue` through its protocol witness before GRDB binds it, which
    /// was a sixth of a nearby search. The statement's `arguments` are not updated, so it is
    /// for statements that are always run this way or given their arguments anew.
    public func forEach(binding bind: (inout SQLiteParameters) -> Void, _ body: (borrowing SQLiteColumns) throws -> Void) throws {
        try withoutActuallyEscaping(body) { body in
            try ColumnsCursor(statement: self, binding: bind, make: body).forEach { _ in }
        }
    }
}

/// Steps a statement through GRDB's own stepping (and so its checks and observers), but
/// reads each row with ``SQLiteColumns`` rather than a `Row`: a row cursor builds a `Row`
/// (with its column names) for every step, which was a third of what a one-row lookup cost.
private final class ColumnsCursor<Element>: DatabaseCursor {
    let _statement: Statement
    var _isDone = false
    private let make: (borrowing SQLiteColumns) throws -> Element

    init(statement: Statement, arguments: StatementArguments, make: @escaping (borrowing SQLiteColumns) throws -> Element) throws {
        _statement = statement
        self.make = make
        try statement.setArguments(arguments) // resets the statement, then binds
    }

    init(statement: Statement, binding bind: (inout SQLiteParameters) -> Void, make: @escaping (borrowing SQLiteColumns) throws -> Element) throws {
        _statement = statement
        self.make = make
        try SQLiteParameters.bind(statement, bind)
    }

    // As GRDB's cursors do: a statement left mid-way would keep its read open until it is used again.
    deinit { sqlite3_reset(_statement.sqliteStatement) }

    func _element(sqliteStatement: SQLiteStatement) throws -> Element {
        try make(SQLiteColumns(sqliteStatement))
    }
}
