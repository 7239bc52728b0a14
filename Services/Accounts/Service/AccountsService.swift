import AccountsDomain
import Contracts
import EventLog
import Foundation
import Hummingbird
import Logging
import ReadModel
import ServiceKit

/// The accounts service (port 8081): identity, sessions and personal data.
///
/// Its own settings, beyond the kit's:
/// | variable | default | meaning |
/// |---|---|---|
/// | `COMMONS_BCRYPT_COST` | `11` | bcrypt cost for password hashes (4–16) |
/// | `COMMONS_SIGNING_KEY_DAYS` | `30` | rotate the token-signing key after this many days |
/// | `COMMONS_SESSIONS_PER_ACCOUNT` | `50` | live sessions an account may have; a sign-in beyond it ends the oldest (1–10,000) |
/// | `COMMONS_SIGNING_KEY_SECRET` (or `_FILE`) | a file in the data directory, SQLite log only | seals the shared signing keys; see ``SigningSecret`` |
public enum AccountsService {
    public static let name = "accounts"
    public static let port = 8081
    /// The service's OpenAPI document (also served at its `/openapi.json`).
    public static var openAPI: OpenAPIDocument {
        OpenAPIDocument(title: AccountsAPI.document.title, operations: AccountsAPI.document.operations + EventLogBrowser.operations)
            .administered(as: name)
    }
    /// The projections of the service's read model (the kit adds its revocation list).
    public static let projections: [any Projection] = [SessionsProjection()]

    /// The service, configured from `environment`, reading the time from `clock`.
    public static func definition(environment: EnvironmentVariables = EnvironmentVariables(), clock: WallClock = .system) throws -> ServiceDefinition
    {
        // Read now, so that a bad value stops the service before it listens.
        _ = try environment.integer("COMMONS_BCRYPT_COST", default: 11, in: 4...16)
        // It made whoever registered the address first an admin, with no proof of owning the mailbox.
        if environment.string("COMMONS_BOOTSTRAP_ADMIN_EMAIL") != nil {
            throw ConfigurationError(
                key: "COMMONS_BOOTSTRAP_ADMIN_EMAIL",
                problem: """
                    is no longer read (registering an address proves nothing); unset it and make admins with \
                    `commons accounts create-admin EMAIL --password-stdin`
                    """)
        }
        let rotationDays = try environment.integer("COMMONS_SIGNING_KEY_DAYS", default: 30, in: 1...3_650)
        let sessionsPerAccount = try environment.integer(
            "COMMONS_SESSIONS_PER_ACCOUNT", default: AccountsCommands.defaultSessionsPerAccount, in: 1...10_000)
        // The keys live beside the log, which the runtime opens: attached once it exists.
        let keys = SigningKeyStore(
            sealingKey: .success(try SigningSecret.resolve(environment: environment)), rotationInterval: Double(rotationDays) * 86_400,
            legacyFile: URL(fileURLWithPath: environment.dataDirectory).appendingPathComponent("accounts-signing-keys.json").path)
        @Sendable func attached(_ runtime: ServiceRuntime) throws -> SigningKeyStore {
            keys.attach(try ServiceRuntime.serviceSecrets(beside: runtime.store))
            return keys
        }
        var definition = ServiceDefinition(
            name: name, defaultPort: port, projections: projections, openAPI: openAPI, publicKeys: attached
        ) { router, runtime in
            let keys = try attached(runtime)
            var commands = try AccountsCommands.live(
                store: runtime.store, vault: runtime.keyVault, blobs: runtime.blobStore, environment: runtime.configuration.environment,
                logger: runtime.logger,
                keys: keys, idempotency: runtime.idempotency, waitUntilApplied: { _ = await runtime.waitUntilApplied($0) })
            commands.sessionCap = SessionCap(limit: sessionsPerAccount)
            commands.clock = clock
            commands.liveSessions = { account in try await SessionsProjection.live(of: account, in: runtime.readModel) }
            AccountsAPI(commands: commands, runtime: runtime, keys: keys).addRoutes(to: router)
            // The operator console's log browser: the gateway sends /v1/admin/log here.
            EventLogBrowser.addRoutes(to: router, runtime: runtime)
        }
        definition.credentialRoutes = ["POST /v1/sessions", "POST /v1/accounts", "POST /v1/password-resets", "POST /v1/password-resets/confirm"]
        return definition
    }
}

extension AccountsError: ProblemConvertible {
    /// The problem document for this error; domain errors know nothing of HTTP.
    public var problem: Problem {
        switch self {
        case .invalid(let errors): .validation(errors)
        case .emailTaken: .conflict("An account with this email exists already.", type: "email-taken")
        case .invalidCredentials: .unauthorized("The email or the password is wrong.")
        case .lockedOut(let until):
            Problem(
                .tooManyRequests, type: "signin-locked", detail: "Too many failed sign-ins; try again later.",
                headers: ["Retry-After": String(max(1, Int(until.timeIntervalSinceNow.rounded(.up))))])
        case .accountNotFound: .notFound("There is no such account.")
        case .sessionNotFound: .unauthorized("This refresh token is not valid.")
        case .sessionEnded: .unauthorized("This session has ended; sign in again.")
        case .refreshTokenReused: .unauthorized("This refresh token was used already; the session has been ended to protect you.")
        case .refreshSuperseded:
            .conflict("Another request refreshed this session a moment ago; use the tokens it received.", type: "refresh-superseded")
        case .reauthenticationRequired:
            Problem(
                .forbidden, type: "reauthentication-required",
                detail: "Deleting an account needs a recent sign-in: sign in again, then delete within 10 minutes.")
        case .resetTokenInvalid:
            Problem(.badRequest, type: "invalid-reset-token", detail: "This reset code is invalid, used or expired; ask for a new one.")
        }
    }
}
