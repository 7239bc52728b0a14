import Foundation

extension EventMetadata {
    /// The metadata as a compact JSON object of its set fields, keys sorted, without an
    /// encoder per event: what both stores keep (PostgreSQL as `jsonb`, SQLite as text), and
    /// what ``init(jsonObject:)`` reads back.
    public var jsonText: Data {
        var json: [UInt8] = [UInt8(ascii: "{")]
        json.reserveCapacity(192)
        let fields: [(key: String, value: String?)] = [
            ("actorId", actorId), ("causationId", causationId), ("correlationId", correlationId),
            ("requestId", requestId), ("service", service), ("traceparent", traceparent),
        ]
        for (key, value) in fields {
            guard let value else { continue }
            if json.count > 1 { json.append(UInt8(ascii: ",")) }
            Self.appendString(key, to: &json)
            json.append(UInt8(ascii: ":"))
            Self.appendString(value, to: &json)
        }
        json.append(UInt8(ascii: "}"))
        return Data(json)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `text` as a JSON string: quoted, with quotes, backslashes and control characters escaped.
    private static func appendString(_ text: String, to json: inout [UInt8]) {
        json.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                json.append(UInt8(ascii: "\\"))
                json.append(byte)
            case 0..<0x20:
                json.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                json.append(hexDigits[Int(byte >> 4)])
                json.append(hexDigits[Int(byte & 0xF)])
            default:
                json.append(byte)
            }
        }
        json.append(UInt8(ascii: "\""))
    }
}
