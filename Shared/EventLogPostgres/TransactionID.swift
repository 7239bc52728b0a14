import NIOCore
import PostgresNIO

/// A PostgreSQL `xid8` (a transaction id, as the log records with each row) in its binary
/// form: eight bytes, read and bound without a round trip through text.
struct TransactionID: PostgresNonThrowingEncodable, PostgresDecodable, Sendable {
    var value: UInt64

    init(_ value: UInt64) { self.value = value }

    static var psqlType: PostgresDataType { .xid8 }
    static var psqlFormat: PostgresFormat { .binary }

    func encode<Encoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<Encoder>) {
        buffer.writeInteger(value)
    }

    init<Decoder: PostgresJSONDecoder>(
        from buffer: inout ByteBuffer, type: PostgresDataType, format: PostgresFormat, context: PostgresDecodingContext<Decoder>
    ) throws {
        guard type == .xid8, format == .binary, buffer.readableBytes == 8, let value = buffer.readInteger(as: UInt64.self) else {
            throw PostgresDecodingError.Code.typeMismatch
        }
        self.value = value
    }
}
