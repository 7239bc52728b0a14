import AccountsDomain
import CommonsAPI
import Contracts
import EventLog
import Foundation
import Logging
import ServiceKit

/// Operator commands on accounts, run by the `commons` CLI through the same command path
/// as the HTTP API.
public enum AccountsAdministration {
    /// Makes the account with `email` an admin, registering it first (with `password` and
    /// `displayName`) if there is none. Returns the account id.
    public static func makeAdmin(
        email: String, password: String?, displayName: String, store: any EventStore, environment: EnvironmentVariables
    ) async throws -> UUID {
        let vault = try ServiceRuntime.vault(beside: store, environment: environment)
        try await vault.checkSecrets()
        let commands = try AccountsCommands.live(store: store, vault: vault, environment: environment, logger: Logger(label: "commons"))
        let metadata = EventMetadata(correlationId: UUID().lowercasedText, service: "commons")
        do {
            guard let normalized = EmailAddress(email) else { throw AccountsError.invalid(["email": ["is not an email address"]]) }
            if let existing = try await commands.accountId(for: normalized) {
                _ = try await commands.setRole(of: existing, to: .admin, metadata: metadata)
                return existing
            }
            guard let password else {
                throw AdministrationError("no account has \(normalized); give its password on stdin (--password-stdin) to create it")
            }
            let (accountId, _) = try await commands.createAccount(
                Registration(email: email, password: password, displayName: displayName), metadata: metadata)
            _ = try await commands.setRole(of: accountId, to: .admin, metadata: metadata)
            return accountId
        } catch let error as AccountsError {
            throw AdministrationError(error.problem.detail + (error.problem.errors.map { " \($0)" } ?? ""))
        }
    }
}

/// An operator command that cannot be done, with one line saying why.
public struct AdministrationError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
