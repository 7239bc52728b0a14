import AccountsDomain
import AccountsService
import CommonsAPI
import Contracts
import EventLog
import Foundation
import HummingbirdBcrypt
import Logging
import ServiceKit

/// The pieces of the accounts service that `commons bench accounts` times, each beside
/// the raw operation it is built on.
public enum AccountsBenchmark {
    /// A sign-in through the service's command path (email lookup, lockout check, opening
    /// the sealed hash, bcrypt, session start), for an account it registers first.
    public static func signIn(store: any EventStore, environment: EnvironmentVariables) async throws -> @Sendable () async throws -> Void {
        let commands = try AccountsCommands.live(
            store: store, vault: try ServiceRuntime.vault(beside: store, environment: environment), environment: environment,
            logger: Logger(label: "bench"))
        let email = "bench-\(UUID().uuidString.prefix(8))@example.org"
        let password = "a long enough phrase"
        _ = try await commands.register(Registration(email: email, password: password, displayName: "Bench"), device: "bench", metadata: .init())
        return {
            _ = try await commands.signIn(email: email, password: password, device: "bench", client: "local", metadata: .init())
        }
    }

    /// One bcrypt check at the configured cost, on NIO's thread pool as the service runs it.
    public static func bcryptCheck(cost: Int) -> @Sendable () async throws -> Void {
        let hasher = PasswordHasher(cost: UInt8(cost))
        let hash = Bcrypt.hash("a long enough phrase", cost: UInt8(cost))
        return { _ = try await hasher.verify("a long enough phrase", hash: hash) }
    }
}
