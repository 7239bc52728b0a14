import Codecs
import Contracts
import Crypto
import EventLog
import Foundation

/// The streams the donations service writes, and loading them through the shared catalog.
enum Streams {
    static func organization(_ id: UUID) -> String { "organization-\(id.lowercasedText)" }
    /// The reservation of a slug (DESIGN.md §4): appended with `.noStream`.
    static func slug(_ slug: String) -> String { "organizationslug-\(slug)" }
    static func wallet(_ account: UUID) -> String { "wallet-\(account.lowercasedText)" }
    static func recurring(_ id: UUID) -> String { "recurring-\(id.lowercasedText)" }
    /// One month's run of a monthly donation: appended with `.noStream`, so at most once.
    static func recurringRun(_ id: UUID, month: String) -> String { "recurringrun-\(id.lowercasedText)-\(month)" }
    static func post(_ id: UUID) -> String { "donationpost-\(id.lowercasedText)" }

    /// The decoded events of `stream` from `version` on (nil where a type is unknown), with
    /// the stream's last version.
    static func load(
        _ stream: String, from version: Int64 = 1, store: any EventStore
    ) async throws -> (events: [(any EventContract)?], version: Int64) {
        let recorded = try await store.read(stream: stream, from: version, direction: .forwards, limit: .max)
        return (try recorded.map { try CommonsEvents.catalog.decode($0) }, recorded.last?.version ?? version - 1)
    }
}

extension UUID {
    /// A UUID that is always the same for the same parts: the id of something that must
    /// happen once, such as one month's donation of a monthly donation.
    static func derived(_ parts: String...) -> UUID {
        NameBasedID.make(parts.joined(separator: "|"), version: .v5)
    }
}
