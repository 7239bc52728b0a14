import Contracts
import Crypto
import EventLog
import Foundation

/// The streams the donations service writes, and loading them through the shared catalog.
enum Streams {
    static func organization(_ id: UUID) -> String { "organization-\(id.key)" }
    /// The reservation of a slug (DESIGN.md §4): appended with `.noStream`.
    static func slug(_ slug: String) -> String { "organizationslug-\(slug)" }
    static func wallet(_ account: UUID) -> String { "wallet-\(account.key)" }
    static func recurring(_ id: UUID) -> String { "recurring-\(id.key)" }
    /// One month's run of a monthly donation: appended with `.noStream`, so at most once.
    static func recurringRun(_ id: UUID, month: String) -> String { "recurringrun-\(id.key)-\(month)" }
    static func post(_ id: UUID) -> String { "donationpost-\(id.key)" }

    /// The decoded events of `stream` from `version` on (nil where a type is unknown), with
    /// the stream's last version.
    static func load(_ stream: String, from version: Int64 = 1, store: any EventStore) async throws -> (events: [(any EventContract)?], version: Int64) {
        let recorded = try await store.read(stream: stream, from: version, direction: .forwards, limit: .max)
        return (try recorded.map { try CommonsEvents.catalog.decode($0) }, recorded.last?.version ?? version - 1)
    }
}

extension UUID {
    /// The lower-case text used in stream names and read-model keys.
    var key: String { uuidString.lowercased() }

    /// A UUID that is always the same for the same parts: the id of something that must
    /// happen once, such as one month's donation of a monthly donation.
    static func derived(_ parts: String...) -> UUID {
        var bytes = Array(SHA256.hash(data: Data(parts.joined(separator: "|").utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
