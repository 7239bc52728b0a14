import Foundation
import NIOCore
import PostgresNIO

/// A JSON document bound as `jsonb` in PostgreSQL's binary format: a version byte, then the
/// UTF-8 text as the writer gave it. The server parses it once, as `jsonb`, with no text
/// cast and no Swift `String` in between; it rejects text that is not JSON (22P02) or not
/// UTF-8 (22021). Arrays of it bind as `jsonb[]`.
package struct JSONBDocument: PostgresNonThrowingEncodable, PostgresArrayEncodable, Sendable {
    /// The JSON text, without the version byte.
    package let text: Data

    package static var psqlType: PostgresDataType { .jsonb }
    package static var psqlArrayType: PostgresDataType { .jsonbArray }
    package static var psqlFormat: PostgresFormat { .binary }

    /// The only version of `jsonb`'s binary format: the text follows.
    private static let version: UInt8 = 1

    package func encode<Encoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<Encoder>) {
        buffer.writeInteger(Self.version)
        buffer.writeBytes(text)
    }
}
