import Foundation
import ServiceKit

/// What `ResponseJSON` must write for `value`: Foundation's `JSONEncoder` as the services
/// configure it (`ServiceJSON.encoder`), with each id in lower case, as every answer spells
/// them, where Foundation writes a `UUID`'s upper-case `uuidString`.
public func foundationJSON(_ value: some Encodable) throws -> [UInt8] {
    let text = String(decoding: try ServiceJSON.encoder.encode(value), as: UTF8.self)
    return Array(text.replacing(/"[0-9A-F]{8}-(?:[0-9A-F]{4}-){3}[0-9A-F]{12}"/) { $0.output.lowercased() }.utf8)
}
