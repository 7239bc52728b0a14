import CommonsAPI
import Foundation
import ServiceKit

/// Creates demo data through the public API, the way a client would, so that it passes
/// the same checks and appends the same events as real use.
///
/// Each service adds its demo data as one step; a step whose service is not running is
/// skipped. Seeding twice is harmless: a step takes "exists already" as done.
struct Seeder {
    let api: SeedClient
    /// The stack's event log, for steps that need an operator command (making the demo admin).
    var eventStore: EventStoreLocation? = nil
    /// The stack's settings for such a command: its data directory and accounts secret, so
    /// that the admin's address is reserved under the key the running accounts use.
    var environment = EnvironmentVariables()
    /// The password of the demo accounts and the demo admin.
    var password: String

    /// The steps in order; a later step may use what an earlier one made (see ``SeedState``).
    static let steps: [SeedStep] = [
        SeedStep(service: "accounts", run: seedAccounts),
        SeedStep(service: "listings", run: seedListings),
        SeedStep(service: "donations", run: seedDonations),
        SeedStep(service: "shopping-lists", run: seedShoppingLists),
    ]

    /// Runs the steps of the services in `running` (every step when nil), reporting what
    /// it did line by line. Returns the demo data files that were not found (their data is
    /// missing; seeding again once they are there adds it).
    @discardableResult
    func run(running: Set<String>?, report: (String) -> Void) async throws -> [String] {
        var state = SeedState(password: password)
        state.eventStore = eventStore ?? environment.eventStore
        state.environment = environment
        for step in Self.steps {
            guard running?.contains(step.service) ?? true else {
                report("\(step.service): not running, skipped")
                continue
            }
            try await step.run(api, &state, report)
        }
        return state.missing
    }

    /// The running services, as the gateway's `/health/ready` lists them; nil when the
    /// gateway does not list them (it is not the one of `commons up`). Throws when the
    /// stack is not ready.
    func runningServices() async throws -> Set<String>? {
        let answer = try await api.get("/health/ready")
        switch answer.status {
        case 200:
            return (try? answer.decode(GatewayHealth.self))?.services.map { Set($0.keys) }
        case 503:
            throw CommandFailure("the stack at \(api.gateway) is not ready: \(answer.detail)")
        default:
            return nil
        }
    }
}

/// One service's demo data.
struct SeedStep: Sendable {
    /// The service it needs; the step is skipped when that one is not running.
    let service: String
    let run: @Sendable (SeedClient, inout SeedState, (String) -> Void) async throws -> Void
}

/// What earlier steps made that later ones need.
struct SeedState: Sendable {
    /// The stack's event log: the one `commons up` or `commons seed --event-store` names, else the environment's.
    var eventStore = EnvironmentVariables().eventStore
    /// The stack's settings, for operator commands (see ``Seeder/environment``).
    var environment = EnvironmentVariables()
    /// Demo data files a step did not find, so its data is missing.
    var missing: [String] = []
    /// The password of the demo accounts and the demo admin.
    let password: String
    init(password: String) { self.password = password }

    /// Access tokens of demo accounts by email, for steps that act as someone.
    private var accessTokens: [String: String] = [:]

    /// Remembers the token a registration returned.
    mutating func remember(accessToken: String, of email: String) {
        accessTokens[email] = accessToken
    }

    /// An access token of the demo account `email`, signing in when there is none yet.
    mutating func accessToken(of email: String, api: SeedClient) async throws -> String {
        if let token = accessTokens[email] { return token }
        let answer = try await api.post("/v1/sessions", SignIn(email: email, password: password))
        guard answer.status == 201 else {
            throw CommandFailure("accounts: cannot sign in as \(email) with the seed's password: \(answer.status) \(answer.detail)")
        }
        let token = try answer.decode(Tokens.self).accessToken
        accessTokens[email] = token
        return token
    }
}

extension SeedState {
    /// The demo data file `name` decoded (see ``DemoDataFile/load(_:_:overriddenBy:)``); nil
    /// when there is none, after reporting that `step` skips its data and recording the file
    /// as missing, so that the data directory is not marked as seeded.
    mutating func demoFile<T: Decodable>(
        _ type: T.Type, _ name: String, overriddenBy variable: String, step: String,
        report: (String) -> Void
    ) throws -> (value: T, file: URL)? {
        guard let found = try DemoDataFile.load(type, name, overriddenBy: variable) else {
            report("\(step): Data/\(name) not found (set \(variable)); skipped")
            missing.append("Data/\(name)")
            return nil
        }
        return found
    }
}
