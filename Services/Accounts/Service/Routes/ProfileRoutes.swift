import AccountsDomain
import Codecs
import Contracts
import EventLog
import Foundation
import Hummingbird
import ServiceKit

extension AccountsAPI {
    /// What the owner sees of their account.
    struct MeView: Codable, Equatable {
        var id: UUID
        var email: String
        var displayName: String
        var phone: String?
        var homeLocation: Coordinate?
        var avatarImageId: UUID?
        var role: String
        var memberSince: Date?
    }

    /// What anyone sees of an account: nothing private.
    struct PublicProfile: Codable, Equatable {
        var id: UUID
        var displayName: String
        var avatarImageId: UUID?
        var memberSince: Date?
    }

    /// `PATCH /v1/me`: each field present replaces the old value; `null` clears the optional ones.
    struct ProfilePatch: Decodable {
        var displayName: String?
        var phone: Patch<String>
        var avatarImageId: Patch<UUID>
        var homeLocation: Patch<Coordinate>

        enum CodingKeys: String, CodingKey { case displayName, phone, avatarImageId, homeLocation }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            displayName = try container.decodeIfPresent(String.self, forKey: .displayName)
            phone = try Patch(container, .phone)
            avatarImageId = try Patch(container, .avatarImageId)
            homeLocation = try Patch(container, .homeLocation)
        }

        func problems() -> [String: [String]] {
            var problems: [String: [String]] = [:]
            if let displayName, let problem = ProfileRules.displayNameProblem(displayName) { problems["displayName"] = [problem] }
            if case .set(let phone) = phone, let problem = ProfileRules.phoneProblem(phone) { problems["phone"] = [problem] }
            if case .set(let location) = homeLocation { problems.merge(ProfileRules.locationProblems(location)) { $0 + $1 } }
            return problems
        }
    }

    func addProfileRoutes(to router: Router<AppRequestContext>) {
        router.get("/v1/me") { _, context in
            let identity = try context.requireIdentity()
            let (account, personal) = try await commands.profile(of: identity.accountId)
            return try Response.json(meView(identity.accountId, account, personal), version: account.version)
        }
        router.patch("/v1/me") { request, context in
            let identity = try context.requireIdentity()
            let expected = try request.ifMatchVersion()
            let patch = try await request.decodeJSON(as: ProfilePatch.self, context: context)
            let problems = patch.problems()
            guard problems.isEmpty else { throw Problem.validation(problems) }
            let (account, personal, position) = try await commands.updateProfile(
                of: identity.accountId, expectedVersion: expected,
                change: { personal, avatar in
                    if let name = patch.displayName { personal.displayName = name.trimmingWhitespaceAndNewlines() }
                    patch.phone.apply(to: &personal.phone)
                    patch.homeLocation.apply(to: &personal.homeLocation)
                    patch.avatarImageId.apply(to: &avatar)
                }, metadata: context.eventMetadata)
            return try Response.json(meView(identity.accountId, account, personal), version: account.version, position: position)
        }
        router.delete("/v1/me") { _, context in
            let identity = try context.requireIdentity()
            try await commands.requireRecentSignIn(identity.sessionId)
            let position = try await commands.delete(accountId: identity.accountId, metadata: context.eventMetadata)
            var response = await settled(position)
            response.setCookies(BrowserSession.clearingCookies)
            return response
        }
        router.get("/v1/users/{id}") { _, context in
            let id = try context.parameters.uuid("id")
            let (account, personal) = try await commands.profile(of: id)
            return try Response.json(
                PublicProfile(id: id, displayName: personal.displayName, avatarImageId: account.avatarImageId, memberSince: account.registeredAt))
        }
    }

    func meView(_ id: UUID, _ account: AccountState, _ personal: PersonalData) -> MeView {
        MeView(
            id: id, email: personal.email, displayName: personal.displayName, phone: personal.phone, homeLocation: personal.homeLocation,
            avatarImageId: account.avatarImageId, role: account.role, memberSince: account.registeredAt)
    }
}

/// A field of a partial update: absent (keep), `null` (clear) or a value (set).
enum Patch<Value: Decodable & Sendable>: Sendable {
    case keep
    case clear
    case set(Value)

    init<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws {
        if !container.contains(key) {
            self = .keep
        } else if try container.decodeNil(forKey: key) {
            self = .clear
        } else {
            self = .set(try container.decode(Value.self, forKey: key))
        }
    }

    func apply(to value: inout Value?) {
        switch self {
        case .keep: break
        case .clear: value = nil
        case .set(let new): value = new
        }
    }
}
