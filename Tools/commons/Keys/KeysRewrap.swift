import ArgumentParser
import Foundation
import ServiceKit

/// `commons keys …`: operator commands on the vault of personal-data keys.
struct KeysGroup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "Operator commands on the vault of personal-data keys.", subcommands: [Rewrap.self, KeysStatus.self])
}

/// `commons keys rewrap`: the middle step of rotating `COMMONS_KEY_VAULT_SECRET`. Every
/// live key still wrapped by the previous secret (or stored before keys were wrapped) is
/// wrapped by the current one; after it, the previous secret can be forgotten, and with it
/// every copy of a destroyed key in old backups, dead rows and the WAL.
struct Rewrap: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rewrap",
        abstract: "Wrap every personal-data key with the current COMMONS_KEY_VAULT_SECRET.",
        discussion: """
            Rotation: give every service the new secret as COMMONS_KEY_VAULT_SECRET and the old one as \
            COMMONS_KEY_VAULT_PREVIOUS_SECRET, run this with both, then remove the previous secret everywhere \
            and destroy every copy of it. Safe to run while the services run, and to run again.
            """)

    @OptionGroup var store: EventStoreOption

    func run() async throws {
        try await store.withStore { log in
            let vault = try ServiceRuntime.vault(beside: log, environment: EnvironmentVariables())
            try await vault.checkSecrets()
            let count = try await vault.rewrap()
            print("keys rewrapped: \(count.rewrapped); already wrapped by the current secret: \(count.current)")
        }
    }
}
