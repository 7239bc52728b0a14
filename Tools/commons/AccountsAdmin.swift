import AccountsService
import ArgumentParser
import Foundation
import ServiceKit

/// `commons accounts …`: operator commands on accounts.
struct AccountsGroup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts", abstract: "Operator commands on accounts.", subcommands: [CreateAdmin.self])
}

/// `commons accounts create-admin EMAIL`: makes an account an admin, creating it if needed.
struct CreateAdmin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create-admin", abstract: "Make the account with this email an admin (creating it with --password if there is none).")

    @Argument(help: "The account's email.")
    var email: String

    @Option(help: "The password, when the account does not exist yet.")
    var password: String?

    @Option(help: "The display name, when the account does not exist yet.")
    var name = "Administrator"

    @OptionGroup var store: EventStoreOption

    func run() async throws {
        try await store.withStore { log in
            let id = try await AccountsAdministration.makeAdmin(
                email: email, password: password, displayName: name, store: log, environment: EnvironmentVariables())
            print("\(email) is an admin (account \(id.uuidString.lowercased()))")
        }
    }
}
