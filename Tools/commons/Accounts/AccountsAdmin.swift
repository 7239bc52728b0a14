import AccountsService
import ArgumentParser
import Foundation
import ServiceKit

/// `commons accounts …`: operator commands on accounts.
struct AccountsGroup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts", abstract: "Operator commands on accounts.", subcommands: [CreateAdmin.self, RemoveAdmin.self])
}

/// `commons accounts create-admin EMAIL`: makes an account an admin, creating it if needed.
/// This operator command, run where the log is, is the only way to an admin: registering
/// an address proves nothing. A password never goes on the command line (where `ps` and
/// shell history show it): it is read from stdin, without echo on a terminal.
struct CreateAdmin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create-admin",
        abstract: "Make the account with this email an admin (creating it, with a password read from stdin, if there is none).",
        discussion: "printf '%s\\n' \"$PASSWORD\" | commons accounts create-admin admin@example.org --password-stdin")

    @Argument(help: "The account's email.")
    var email: String

    @Flag(help: "Read the new account's password from the first line of stdin (prompted for, without echo, on a terminal).")
    var passwordStdin = false

    @Option(help: "The display name, when the account does not exist yet.")
    var name = "Administrator"

    @OptionGroup var store: EventStoreOption

    func run() async throws {
        let password = passwordStdin ? try PasswordInput.read(prompt: "password for \(email): ") : nil
        try await store.withStore { log in
            let id = try await AccountsAdministration.makeAdmin(
                email: email, password: password, displayName: name, store: log, environment: EnvironmentVariables())
            print("\(email) is an admin (account \(id.lowercasedText))")
        }
    }
}

/// `commons accounts remove-admin EMAIL`: makes an admin a member again, at once: every
/// session of the account ends, so no token it holds keeps the role until it expires.
struct RemoveAdmin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove-admin", abstract: "Make the account with this email a member again and end its sessions.")

    @Argument(help: "The account's email.")
    var email: String

    @OptionGroup var store: EventStoreOption

    func run() async throws {
        try await store.withStore { log in
            let id = try await AccountsAdministration.removeAdmin(email: email, store: log, environment: EnvironmentVariables())
            print("\(email) is a member (account \(id.lowercasedText)); its sessions are ended")
        }
    }
}
