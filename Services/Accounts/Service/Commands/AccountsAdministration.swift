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
        try await withCommands(store: store, environment: environment) { commands, metadata in
            let normalized = try address(email)
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
        }
    }

    /// Makes the account with `email` a member again and ends every session it has, so that
    /// no token it holds keeps the admin role until it expires: every service refuses a token
    /// of an ended session once it has read the revocation. Returns the account id.
    public static func removeAdmin(email: String, store: any EventStore, environment: EnvironmentVariables) async throws -> UUID {
        try await withCommands(store: store, environment: environment) { commands, metadata in
            let normalized = try address(email)
            guard let accountId = try await commands.accountId(for: normalized) else { throw AdministrationError("no account has \(normalized)") }
            _ = try await commands.setRole(of: accountId, to: .member, metadata: metadata)
            _ = try await commands.revokeSessions(of: accountId, except: nil, reason: "administrator role removed", metadata: metadata)
            return accountId
        }
    }

    private static func address(_ email: String) throws -> EmailAddress {
        guard let normalized = EmailAddress(email) else { throw AccountsError.invalid(["email": ["is not an email address"]]) }
        return normalized
    }

    /// Runs `body` with the accounts commands on `store`, as the service would build them;
    /// a refusal becomes one line.
    private static func withCommands<T>(
        store: any EventStore, environment: EnvironmentVariables, _ body: (AccountsCommands, EventMetadata) async throws -> T
    ) async throws -> T {
        let vault = try ServiceRuntime.vault(beside: store, environment: environment)
        try await vault.checkSecrets()
        let commands = try AccountsCommands.live(store: store, vault: vault, environment: environment, logger: Logger(label: "commons"))
        do {
            return try await body(commands, EventMetadata(correlationId: UUID().lowercasedText, service: "commons"))
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
