import AccountsService
import Codecs
import CommonsAPI
import Foundation
import Logging
import ServiceKit

/// The demo administrator that loads organisations; created through the operator command
/// (`commons accounts create-admin`'s path) the first time, with the demo password.
enum DemoAdmin {
    static let email = "admin@commons.local"
    static let displayName = "Commons Admin"
}

/// Loads `Data/organizations.json` (real charities with public facts, fictional donation
/// centres) through the admin API, so that it becomes events through the normal command
/// path. An organisation that exists already is left as it is, and its verification and
/// estimates are sent again with the same Idempotency-Keys, which changes nothing. Then the
/// demo accounts give (see ``seedDonors``).
func seedDonations(_ api: SeedClient, _ state: inout SeedState, _ report: (String) -> Void) async throws {
    guard let file = SeedData.organizationsFile() else {
        report("donations: Data/organizations.json not found (set COMMONS_ORGANIZATIONS_FILE); skipped")
        state.missing.append("Data/organizations.json")
        return
    }
    let data = try SeedData.decode(file)
    let admin = try await SeedData.adminToken(api, state: state)
    report("donations: \(data.organizations.count) organisations from \(file.path), loaded as \(DemoAdmin.email)")
    for organization in data.organizations {
        let existing = try await api.get("/v1/organizations/\(organization.slug)")
        var outcome = "already registered"
        if existing.status == 404 {
            let created = try await api.post("/v1/organizations", organization.body, token: admin)
            guard created.status == 201 || created.status == 409 else {
                throw CommandFailure("donations: registering \(organization.slug) answered \(created.status): \(created.detail)")
            }
            outcome = created.status == 201 ? "registered" : "already registered"
        }
        let verified = try await api.put("/v1/organizations/\(organization.slug)/verification", ["verified": organization.verified], token: admin)
        guard verified.status == 200 else {
            throw CommandFailure("donations: verifying \(organization.slug) answered \(verified.status): \(verified.detail)")
        }
        for (index, estimate) in organization.impactEstimates.enumerated() {
            let added = try await api.post(
                "/v1/organizations/\(organization.slug)/impact-estimates", estimate, token: admin,
                idempotencyKey: "seed \(organization.slug) estimate \(index)")
            guard added.status == 201 else {
                throw CommandFailure("donations: estimate \(index) of \(organization.slug) answered \(added.status): \(added.detail)")
            }
        }
        report("  \(organization.slug)  \(outcome)")
    }
    try await seedDonors(api, &state, report)
}

/// The demo data file and the admin that loads it.
enum SeedData {
    /// The file's shape: organisations as `POST /v1/organizations` takes them, plus their
    /// verification and impact estimates.
    struct File: Decodable {
        var organizations: [Organization]
    }

    struct Organization: Decodable {
        var slug: String
        var verified: Bool
        var body: JSONValue
        var impactEstimates: [JSONValue]

        enum CodingKeys: String, CodingKey { case slug, verified, impactEstimates }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            slug = try container.decode(String.self, forKey: .slug)
            verified = try container.decodeIfPresent(Bool.self, forKey: .verified) ?? true
            impactEstimates = try container.decodeIfPresent([JSONValue].self, forKey: .impactEstimates) ?? []
            body = try JSONValue(from: decoder).removing(["verified", "impactEstimates", "fictional", "note"])
        }
    }

    /// `COMMONS_ORGANIZATIONS_FILE`, else `Data/organizations.json` (see ``DemoDataFile``).
    static func organizationsFile() -> URL? {
        DemoDataFile.locate("organizations.json", overriddenBy: "COMMONS_ORGANIZATIONS_FILE")
    }

    static func decode(_ file: URL) throws -> File {
        do {
            return try JSONDecoder().decode(File.self, from: try Data(contentsOf: file))
        } catch {
            throw CommandFailure("donations: \(file.path) is not a valid organisations file: \(error)")
        }
    }

    /// An admin token: the demo admin signs in; the first time, the account is created (or
    /// made an admin) on the stack's log through the operator command.
    static func adminToken(_ api: SeedClient, state: SeedState) async throws -> String {
        if let token = try await signIn(api, password: state.password), isAdmin(token) { return token }
        let location = state.eventStore
        var logger = Logger(label: "commons")
        logger.logLevel = .critical
        let store = try await location.open(logger: logger)
        do {
            _ = try await AccountsAdministration.makeAdmin(
                email: DemoAdmin.email, password: state.password, displayName: DemoAdmin.displayName,
                store: store, environment: state.environment)
        } catch {
            await store.shutdown()
            throw CommandFailure("donations: cannot make the demo admin: \(error)")
        }
        await store.shutdown()
        // The accounts service learns the new account from the log; give it a moment.
        for _ in 0..<50 {
            if let token = try await signIn(api, password: state.password), isAdmin(token) { return token }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw CommandFailure("donations: \(DemoAdmin.email) was made an admin but cannot sign in as one")
    }

    private static func signIn(_ api: SeedClient, password: String) async throws -> String? {
        let answer = try await api.post("/v1/sessions", SignIn(email: DemoAdmin.email, password: password))
        guard answer.status == 201 else { return nil }
        return try answer.decode(Tokens.self).accessToken
    }

    /// Whether the token's `role` claim says admin (the token is the service's own; it is not verified here).
    private static func isAdmin(_ token: String) -> Bool {
        let parts = token.split(separator: ".")
        guard parts.count == 3, let payload = Base64URL.decode(String(parts[1])).map({ Data($0) }),
            let claims = try? JSONSerialization.jsonObject(with: payload) as? [String: Any]
        else { return false }
        return claims["role"] as? String == "admin"
    }
}

/// Any JSON value, to pass parts of the data file on as they are.
enum JSONValue: Codable, Sendable {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            // Whole numbers go out as integers: the API's amounts are integers.
            if value.rounded() == value, abs(value) < 1e15 { try container.encode(Int(value)) } else { try container.encode(value) }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The object without `keys`.
    func removing(_ keys: Set<String>) -> JSONValue {
        guard case .object(let members) = self else { return self }
        return .object(members.filter { !keys.contains($0.key) })
    }
}
