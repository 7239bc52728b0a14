/// A statement of the log that each connection prepares once, by name: its text and the
/// types (OIDs) of its parameters, given rather than inferred, as PostgresNIO gives them.
struct PreparedSQL: Sendable {
    let name: String
    let sql: String
    let types: [UInt32]

    init(_ name: String, _ sql: String, _ types: [PostgresType]) {
        self.name = name
        self.sql = sql
        self.types = types.map(\.rawValue)
    }
}

/// The OIDs of the types the log's statements take.
enum PostgresType: UInt32 {
    case bool = 16
    case int8 = 20
    case int4 = 23
    case text = 25
    case uuid = 2950
    case jsonb = 3802
    case xid8 = 5069
    case int4Array = 1007
    case textArray = 1009
    case int8Array = 1016
    case uuidArray = 2951
    case jsonbArray = 3807
}
