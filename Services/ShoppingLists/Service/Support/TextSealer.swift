import Contracts
import EventLog
import Foundation
import ServiceKit

/// Seals what people write (list names, item texts, notes, reviews) with the writer's
/// personal-data key, so deleting their account makes it unreadable in the log's whole
/// history (the kit's ``PersonalDataSealer``).
package struct TextSealer: Sendable {
    let vault: any KeyVault

    package init(vault: any KeyVault) { self.vault = vault }

    func seal(_ text: String, for owner: UUID) async throws -> Sealed {
        try await PersonalDataSealer(vault: vault).seal(text, for: owner)
    }

    /// A reader for one answer (or one batch of a live stream), which asks the vault once per
    /// key however many texts it opens: a ``KeyScope`` of its own, so that nothing is
    /// remembered past it (a stream's body runs outside its request's scope).
    func reader() -> SealedTextReader { SealedTextReader(sealer: PersonalDataSealer(vault: vault)) }
}

/// Opens sealed texts for one answer.
struct SealedTextReader: Sendable {
    let sealer: PersonalDataSealer
    let scope = KeyScope()

    /// The text, or nil when its writer's key is gone (the account was deleted).
    func open(_ sealed: Sealed?) async throws -> String? {
        guard let sealed else { return nil }
        return try await KeyScope.$current.withValue(scope) { try await sealer.open(sealed, as: String.self) }
    }

    /// Opens a sealed text as the read model stores it (its JSON).
    func open(stored json: String?) async throws -> String? {
        try await open(json.flatMap(SealedColumn.decode))
    }
}

/// How a `Sealed` value is kept in a read-model column: its JSON.
enum SealedColumn {
    static func encode(_ sealed: Sealed?) -> String? {
        sealed.flatMap { try? String(decoding: JSONEncoder().encode($0), as: UTF8.self) }
    }

    static func decode(_ json: String) -> Sealed? {
        try? JSONDecoder().decode(Sealed.self, from: Data(json.utf8))
    }
}
