import AccountsDomain
import Codecs
import CommonsAPI
import Contracts
import EventLog
import Foundation
import Hummingbird
import ServiceKit

extension AccountsAPI {
    func addProfileRoutes(to router: Router<AppRequestContext>) {
        router.get("/v1/me") { _, context in
            let identity = try context.requireIdentity()
            let (account, personal) = try await commands.profile(of: identity.accountId)
            return try Response.json(meView(identity.accountId, account, personal), version: account.version)
        }
        router.patch("/v1/me") { request, context in
            let identity = try context.requireIdentity()
            let expected = try request.ifMatchVersion()
            let patch = try await request.decodeJSON(as: ProfileChange.self, context: context)
            var problems = patch.problems()
            if let avatar = patch.avatarImageId?.value {
                let current = try await commands.profile(of: identity.accountId).0.avatarImageId
                let images = try await ImageUploads.problems(
                    attaching: [avatar], by: identity.accountId, keeping: Set([current].compactMap { $0 }), in: runtime.store
                ) { _ in "avatarImageId" }
                problems.merge(images) { $0 + $1 }
            }
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

    func meView(_ id: UUID, _ account: AccountState, _ personal: PersonalData) -> Me {
        Me(
            id: id, email: personal.email, displayName: personal.displayName, phone: personal.phone,
            homeLocation: personal.homeLocation,
            avatarImageId: account.avatarImageId, role: account.role, memberSince: account.registeredAt)
    }
}

extension ProfileChange {
    /// What is wrong with the fields it sets, by field.
    func problems() -> [String: [String]] {
        var problems: [String: [String]] = [:]
        if let displayName, let problem = ProfileRules.displayNameProblem(displayName) { problems["displayName"] = [problem] }
        if case .set(let phone) = phone, let problem = ProfileRules.phoneProblem(phone) { problems["phone"] = [problem] }
        if case .set(let location) = homeLocation { problems.merge(ProfileRules.locationProblems(location)) { $0 + $1 } }
        return problems
    }
}

extension Optional {
    /// Applies a partial update's edit to `value`: none (nil) keeps it, `.clear` clears it,
    /// `.set` replaces it.
    func apply<Value>(to value: inout Value?) where Wrapped == PatchValue<Value> {
        switch self {
        case .none: break
        case .some(.clear): value = nil
        case .some(.set(let new)): value = new
        }
    }
}
