import AccountsDomain
import CommonsAPI
import Contracts
import EventLog
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import ServiceKit

/// The HTTP face of the accounts commands.
struct AccountsAPI: Sendable {
    let commands: AccountsCommands
    let runtime: ServiceRuntime
    let keys: SigningKeyStore

    func addRoutes(to router: Router<AppRequestContext>) {
        router.post("/v1/accounts") { request, context in
            let asCookies = try BrowserSession.wantsCookies(request)
            let registration = try await request.decodeJSON(as: Registration.self, context: context)
            let (tokens, position) = try await commands.register(registration, device: device(request), metadata: context.eventMetadata)
            return try deliver(tokens, asCookies: asCookies, status: .created, position: position, location: "/v1/me")
        }
        router.post("/v1/sessions") { request, context in
            let asCookies = try BrowserSession.wantsCookies(request)
            let body = try await request.decodeJSON(as: SignIn.self, context: context)
            let (tokens, position) = try await commands.signIn(
                email: body.email, password: body.password, device: device(request), client: context.clientAddress,
                metadata: context.eventMetadata)
            return try deliver(tokens, asCookies: asCookies, status: .created, position: position)
        }
        router.post("/v1/sessions/refresh") { request, context in
            let asCookies = try BrowserSession.wantsCookies(request)
            let body = try await request.decodeJSON(as: TokenRefresh.self, context: context)
            let token = try refreshToken(body, request)
            let (tokens, position) = try await commands.refresh(token: token, metadata: context.eventMetadata)
            return try deliver(tokens, asCookies: asCookies, position: position)
        }
        router.get("/v1/sessions") { _, context in
            let identity = try context.requireIdentity()
            let rows = try await runtime.readModel.pool.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT session_id, device, sealed_device, started_at, last_used_at FROM sessions
                        WHERE account_id = ? AND revoked = 0 ORDER BY started_at DESC
                        """, arguments: [identity.accountId.lowercasedText]
                ).map { row in
                    (
                        id: UUID(uuidString: row["session_id"]) ?? UUID(), device: row["device"] as String, sealed: row["sealed_device"] as String?,
                        startedAt: row["started_at"] as Double, lastUsedAt: row["last_used_at"] as Double
                    )
                }
            }
            let sealer = PersonalDataSealer(vault: runtime.keyVault)
            var sessions: [SessionInfo] = []
            for row in rows {
                let device = row.sealed == nil ? row.device : try await sealer.open(json: row.sealed, as: String.self) ?? ""
                sessions.append(
                    SessionInfo(
                        id: row.id, device: device, createdAt: Date(timeIntervalSince1970: row.startedAt),
                        lastUsedAt: Date(timeIntervalSince1970: row.lastUsedAt), current: row.id == identity.sessionId))
            }
            return try Response.json(Items(items: sessions))
        }
        router.delete("/v1/sessions/current") { _, context in
            let identity = try context.requireIdentity()
            let position = try await commands.revokeSession(
                identity.sessionId, of: identity.accountId, reason: "signed out", metadata: context.eventMetadata)
            var response = await settled(position)
            response.setCookies(BrowserSession.clearingCookies)
            return response
        }
        router.delete("/v1/sessions/{id}") { _, context in
            let identity = try context.requireIdentity()
            let session = try context.parameters.uuid("id")
            let position: Checkpoint?
            do {
                position = try await commands.revokeSession(
                    session, of: identity.accountId, reason: "revoked by owner", metadata: context.eventMetadata)
            } catch AccountsError.sessionNotFound {
                // Here the session is one the caller names, not the one they present.
                throw Problem.notFound("You have no such session.")
            }
            return await settled(position)
        }
        router.post("/v1/password-resets") { request, context in
            let body = try await request.decodeJSON(as: PasswordResetRequest.self, context: context)
            try await commands.requestPasswordReset(email: body.email, metadata: context.eventMetadata)
            // The same answer whether or not the email has an account.
            return try Response.json(["status": "If an account has this email, a reset code is on its way."], status: .accepted)
        }
        router.post("/v1/password-resets/confirm") { request, context in
            let body = try await request.decodeJSON(as: PasswordReset.self, context: context)
            let position = try await commands.confirmPasswordReset(token: body.token, newPassword: body.newPassword, metadata: context.eventMetadata)
            return await settled(position)
        }
        router.put("/v1/me/password") { request, context in
            let identity = try context.requireIdentity()
            let body = try await request.decodeJSON(as: PasswordChange.self, context: context)
            let position = try await commands.changePassword(
                of: identity.accountId, current: body.currentPassword, new: body.newPassword,
                keeping: identity.sessionId, metadata: context.eventMetadata)
            return await settled(position)
        }
        router.get("/.well-known/jwks.json") { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "application/json"
            headers[.cacheControl] = "public, max-age=300"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: try await keys.ring().jwks())))
        }
        addProfileRoutes(to: router)
    }

    /// Answers a write that ends sessions only once this service has read it, so the
    /// ended tokens are refused here from the next request on: 204 means they are.
    ///
    /// The wait lasts up to the request deadline less a second (to answer in). A service
    /// that has not read the write by then (only under heavy load) answers 202 Accepted:
    /// the change is saved and takes effect here as soon as it is read, which a request
    /// with its `Commons-Position` as `Commons-Min-Position` waits for.
    func settled(_ position: Checkpoint?) async -> Response {
        guard let position else { return Response.empty() }
        if await runtime.waitUntilApplied(position, timeout: Self.settlingPatience(within: runtime.configuration.requestDeadline)) {
            return Response.empty(position: position)
        }
        return Response.json(encoded: Self.notYetInEffect, status: .accepted, position: position)
    }

    /// How long ``settled(_:)`` waits, given the request deadline.
    static func settlingPatience(within deadline: Duration) -> Duration {
        max(deadline - .seconds(1), .milliseconds(500))
    }

    /// The body of a 202 from ``settled(_:)``.
    static let notYetInEffect = Array(
        #"{"status":"Saved. It takes effect in moments: until then the sessions it ends may still be used here."}"#.utf8)

    /// The device a session is named after: the User-Agent, shortened.
    func device(_ request: Request) -> String {
        String((request.headers[.userAgent] ?? "unknown device").prefix(120))
    }
}
