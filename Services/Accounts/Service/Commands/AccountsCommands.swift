import AccountsDomain
import Codecs
import CommonsAPI
import Contracts
import EventLog
import Foundation
import GRDB
import Logging
import ServiceKit

/// A reused refresh token ended its session at `position`.
struct SessionEndedByReuse: ProblemConvertible {
    let position: Checkpoint?

    /// ``AccountsError/refreshTokenReused``'s problem, with the position that lets the client
    /// (and its other services) wait until the end is read.
    public var problem: Problem {
        var problem = AccountsError.refreshTokenReused.problem
        if let position { problem.headers["Commons-Position"] = position.description }
        return problem
    }
}

/// The accounts service's commands, free of HTTP: each loads the streams it needs,
/// decides with the domain types, and appends with the version it saw.
package struct AccountsCommands: Sendable {
    let store: any EventStore
    let vault: any KeyVault
    /// Photos and their sizes; an account's go when it is deleted.
    let blobs: any BlobStore
    let sealer: PersonalDataSealer
    let hasher: PasswordHasher
    let keys: SigningKeyStore
    let mailer: any Mailer
    /// Every service's first answers to `Idempotency-Key` requests; a deleted account's go.
    var idempotency: (any IdempotencyRecords)?
    /// Waits (bounded) until the read model has applied a checkpoint.
    let waitUntilApplied: @Sendable (Checkpoint) async -> Void
    /// How many live sessions an account may have (`COMMONS_SESSIONS_PER_ACCOUNT`).
    var sessionCap = SessionCap(limit: AccountsCommands.defaultSessionsPerAccount)
    /// An account's live sessions as the read model knows them, oldest first; none where there is no read
    /// model (an operator tool), which leaves the cap unenforced there.
    var liveSessions: @Sendable (UUID) async throws -> [UUID] = { _ in [] }
    /// The default of `COMMONS_SESSIONS_PER_ACCOUNT`.
    package static let defaultSessionsPerAccount = 50
    /// Sign-in attempts at one address that meet each other this often in a row end locked out.
    static let signInRaces = 50
    /// Where the commands read the time.
    var clock = WallClock.system
    let accessTokenLifetime: TimeInterval = 15 * 60
    let resetTokenLifetime: TimeInterval = 60 * 60
    /// The most reset codes one address is mailed in an hour: more requests are answered
    /// alike (202) and send nothing, so nobody can flood a stranger's inbox.
    static let resetMailsPerHour = 3

    /// The commands as the service, the CLI and the benchmark run them, configured from
    /// `environment` (`COMMONS_BCRYPT_COST`, `COMMONS_DATA_DIR` for the signing keys and
    /// the outbox) on the log `store` and the key vault beside it.
    /// The commands as an operator tool or a benchmark uses them: no signing keys of their own.
    package static func live(store: any EventStore, vault: any KeyVault, environment: EnvironmentVariables, logger: Logger) throws -> AccountsCommands
    {
        try live(store: store, vault: vault, blobs: nil, environment: environment, logger: logger, keys: nil)
    }

    static func live(
        store: any EventStore, vault: any KeyVault, blobs: (any BlobStore)? = nil, environment: EnvironmentVariables, logger: Logger,
        keys: SigningKeyStore? = nil, idempotency: (any IdempotencyRecords)? = nil,
        waitUntilApplied: @escaping @Sendable (Checkpoint) async -> Void = { _ in }
    ) throws -> AccountsCommands {
        AccountsCommands(
            store: store, vault: vault, blobs: try blobs ?? ServiceRuntime.blobStore(beside: store), sealer: PersonalDataSealer(vault: vault),
            hasher: PasswordHasher(cost: UInt8(try environment.integer("COMMONS_BCRYPT_COST", default: 11, in: 4...16))),
            keys: try keys ?? SigningKeyStore.live(environment: environment, store: store),
            mailer: OutboxMailer(directory: URL(fileURLWithPath: environment.dataDirectory).appendingPathComponent("outbox"), logger: logger),
            idempotency: idempotency, waitUntilApplied: waitUntilApplied)
    }

    /// What a client gets when a session starts or is refreshed.
    /// The one write path (``CommandHandler``) over this service's log.
    var handler: CommandHandler { CommandHandler(store: store) }

    /// An account's stream folded, with its version.
    private func account(_ accountId: UUID) async throws -> (AccountState, Int64) {
        let (events, version) = try await Streams.load(Streams.account(accountId), from: store)
        return (AccountState.replay(events), version)
    }

    /// A session's stream folded, with its version.
    private func session(_ sessionId: UUID) async throws -> (SessionState, Int64) {
        let (events, version) = try await Streams.load(Streams.session(sessionId), from: store)
        return (SessionState.replay(events), version)
    }

    /// Appends `event` to an active account's stream at the version read, looking again if
    /// the stream moved meanwhile; a deleted account is not found.
    private func appendToAccount(_ accountId: UUID, _ event: some EventContract, metadata: EventMetadata) async throws -> Checkpoint {
        try await handler.handle(Streams.account(accountId), load: { try await account(accountId) }) { account, _ in
            _ = try account.requireActive()
            return .append([try EventCatalog.encode(event, metadata: metadata)]) { $0.checkpoint }
        }
    }

    // MARK: Registration and sign-in

    package func register(_ registration: Registration, device: String, metadata: EventMetadata) async throws -> (Tokens, Checkpoint) {
        let now = clock.now()
        let (accountId, role) = try await createAccount(registration, metadata: metadata)
        return try await startSession(accountId: accountId, role: role, device: device, metadata: metadata, now: now)
    }

    /// Records a new account, with no session (the operator's `create-admin` signs nobody in).
    func createAccount(_ registration: Registration, metadata: EventMetadata) async throws -> (UUID, Identity.Role) {
        let now = clock.now()
        let problems = registration.problems()
        guard problems.isEmpty, let email = EmailAddress(registration.email) else { throw AccountsError.invalid(problems) }
        let accountId = UUID.random()
        let addressKey = UUID.random()
        try await reserve(email, for: accountId, sealedWith: addressKey, metadata: metadata)
        let role = Identity.Role.member
        let personal = PersonalData(
            email: email.normalized, displayName: registration.displayName.trimmingWhitespaceAndNewlines(), addressKeyId: addressKey)
        let registered = AccountRegistered(
            accountId: accountId, role: role.rawValue,
            personal: try await sealer.seal(personal, for: accountId),
            passwordHash: try await sealer.seal(try await hasher.hash(registration.password), for: accountId),
            registeredAt: now)
        _ = try await handler.start(
            Streams.account(accountId), with: [try EventCatalog.encode(registered, metadata: metadata)],
            orThrow: WriteConflict(stream: Streams.account(accountId)))
        return (accountId, role)
    }

    /// Reserves the email for the account, its id sealed with `addressKey`; a reservation
    /// left by a registration that never finished (no account stream), or by an account whose
    /// address key is gone (deleted), is taken over. An address reserved before reservations
    /// were keyed (``Streams/unkeyedEmail(_:)``) stays taken while its account lives.
    private func reserve(_ email: EmailAddress, for accountId: UUID, sealedWith addressKey: UUID, metadata: EventMetadata) async throws {
        let stream = try emailStream(email.normalized)
        let (events, version) = try await Streams.load(stream, from: store)
        let reservation = EmailReserved(account: try await sealer.seal(accountId, for: addressKey))
        var batch = [try EventCatalog.encode(reservation, metadata: metadata)]
        if let reserved = events.last as? EmailReserved {
            if let holder = try await holder(of: reserved), try await store.version(of: Streams.account(holder)) > 0 {
                throw AccountsError.emailTaken
            }
            batch.insert(try EventCatalog.encode(EmailReleased(), metadata: metadata), at: 0)
        } else if version == 0, let holder = try await unkeyedReservation(of: email.normalized),
            try await store.version(of: Streams.account(holder)) > 0
        {
            throw AccountsError.emailTaken
        }
        _ = try await handler.claim(stream, at: version, with: batch, orThrow: AccountsError.emailTaken)
    }

    /// The keyed reservation stream of a normalised address.
    private func emailStream(_ normalized: String) throws -> String {
        Streams.email(normalized, key: try keys.addressKey(for: .emailReservation))
    }

    /// The account holding the address by a reservation made before they were keyed, if any.
    private func unkeyedReservation(of normalized: String) async throws -> UUID? {
        guard let reserved = try await Streams.load(Streams.unkeyedEmail(normalized), from: store).events.last as? EmailReserved else {
            return nil
        }
        return try await holder(of: reserved)
    }

    /// The account a reservation names: in clear (schema 1), or sealed with its address key;
    /// nil once that key is destroyed with the account.
    private func holder(of reservation: EmailReserved) async throws -> UUID? {
        if let sealed = reservation.account { return try await sealer.open(sealed, as: UUID.self) }
        return reservation.accountId
    }

    /// Signs in from `client` (its address), locked out per address and client network (``SignInLockout``).
    package func signIn(
        email text: String, password: String, device: String, client: String, metadata: EventMetadata
    ) async throws -> (Tokens, Checkpoint) {
        let now = clock.now()
        // No password this long can be anyone's: refused for its length alone, before any address is looked up.
        if let problem = PasswordPolicy.lengthProblem(password) { throw AccountsError.invalid(["password": [problem]]) }
        guard let email = EmailAddress(text) else {
            try await hasher.verifyAgainstNothing(password)
            throw AccountsError.invalidCredentials
        }
        let throttleKey = try keys.addressKey(for: .signInThrottle)
        let throttle = Streams.signInThrottle(email.normalized, key: throttleKey)
        let network = Streams.networkTag(ClientNetwork.of(client), key: throttleKey)
        let accountId = try await accountId(for: email)
        // Known or not, the address is counted and locked alike: the answers tell nothing.
        try await reserveSignInAttempt(throttle, network: network, metadata: metadata, now: now)
        guard let accountId else {
            try await hasher.verifyAgainstNothing(password)
            throw AccountsError.invalidCredentials
        }
        let account = AccountState.replay(try await Streams.load(Streams.account(accountId), from: store).events)
        guard !account.isDeleted, let sealedHash = account.passwordHash,
            let hash = try await sealer.open(sealedHash, as: String.self), try await hasher.verify(password, hash: hash)
        else {
            if account.isDeleted { try await hasher.verifyAgainstNothing(password) }
            throw AccountsError.invalidCredentials // the reserved attempt stays counted as a failure
        }
        _ = try await handler.record([try EventCatalog.encode(SignInSucceeded(at: now), metadata: metadata)], to: throttle)
        return try await startSession(
            accountId: accountId, role: Identity.Role(rawValue: account.role) ?? .member, device: device, metadata: metadata, now: now)
    }

    /// Counts a sign-in attempt before its password is checked (``SignInAttempted``), at the
    /// stream's exact version: attempts racing each other take turns, and each checks the
    /// lockout with every earlier one counted. Throws `lockedOut` when sign-in must wait.
    private func reserveSignInAttempt(_ stream: String, network: String, metadata: EventMetadata, now: Date) async throws {
        let attempted = try EventCatalog.encode(SignInAttempted(accountId: nil, network: network, at: now), metadata: metadata)
        do {
            // Another attempt that went first is counted before the lockout is looked at again.
            try await CommandHandler(store: store, attempts: Self.signInRaces).handle(
                stream,
                load: {
                    try await Streams.load(stream, from: store)
                }
            ) { attempts, _ in
                if let until = SignInLockout.replay(attempts).lockedUntil(now: now, network: network) {
                    throw AccountsError.lockedOut(until: until)
                }
                return .append([attempted]) { _ in }
            }
        } catch is WriteConflict {
            throw AccountsError.lockedOut(until: now.addingTimeInterval(1))
        }
    }

    func accountId(for email: EmailAddress) async throws -> UUID? {
        let (events, version) = try await Streams.load(try emailStream(email.normalized), from: store)
        if version == 0 { return try await unkeyedReservation(of: email.normalized) }
        guard let reserved = events.last as? EmailReserved else { return nil }
        return try await holder(of: reserved)
    }

    private func startSession(
        accountId: UUID, role: Identity.Role, device: String, metadata: EventMetadata, now: Date
    ) async throws -> (Tokens, Checkpoint) {
        let refresh = BearerSecret.new()
        let started = SessionStarted(
            sessionId: refresh.id, accountId: accountId, device: try await sealer.seal(device, for: accountId),
            refreshTokenHash: refresh.hash, startedAt: now)
        let result = try await handler.start(
            Streams.session(refresh.id), with: [try EventCatalog.encode(started, metadata: metadata)],
            orThrow: WriteConflict(stream: Streams.session(refresh.id)))
        _ = try await handler.record(
            [try EventCatalog.encode(SessionOpened(sessionId: refresh.id), metadata: metadata)],
            to: Streams.accountSessions(accountId))
        // Past the cap the oldest end. The read model may not hold the newest sessions yet, so
        // sign-ins at the same moment may leave a few more open until the next one. The
        // position answered covers the ends too, so a read that waits for it sees them.
        var position = result.checkpoint
        for oldest in sessionCap.toEnd(live: try await liveSessions(accountId), starting: refresh.id) {
            if let ended = try? await revokeSession(oldest, of: accountId, reason: "too many sessions", metadata: metadata) {
                position = max(position, ended)
            }
        }
        return (try await tokens(accountId: accountId, role: role, refresh: refresh, now: now), position)
    }

    private func tokens(accountId: UUID, role: Identity.Role, refresh: BearerSecret, now: Date) async throws -> Tokens {
        let (signer, kid) = try await keys.ring().signer()
        let claims = AccessTokenClaims(accountId: accountId, sessionId: refresh.id, role: role, issuedAt: now, lifetime: accessTokenLifetime)
        let access = try await signer.sign(claims, kid: .init(string: kid))
        return Tokens(
            accountId: accountId, sessionId: refresh.id, accessToken: access, refreshToken: refresh.token, expiresIn: Int(accessTokenLifetime))
    }

    // MARK: Sessions

    func refresh(token: String, metadata: EventMetadata) async throws -> (Tokens, Checkpoint) {
        let now = clock.now()
        guard let presented = BearerSecret(token) else { throw AccountsError.sessionNotFound }
        let stream = Streams.session(presented.id)
        let next = BearerSecret.new(id: presented.id)
        let (accountId, role, position) = try await handler.handle(stream, load: { try await session(presented.id) }) { session, _ in
            let refreshed: SessionRefreshed
            do {
                refreshed = try session.refresh(presentedHash: presented.hash, newHash: next.hash, now: now)
            } catch AccountsError.refreshTokenReused {
                // Someone replayed a rotated token: whoever holds the session now, it ends.
                var position: Checkpoint?
                if let revoked = session.revoke(reason: "refresh token reused", now: now) {
                    let result = try await handler.record([try EventCatalog.encode(revoked, metadata: metadata)], to: stream)
                    await waitUntilApplied(result.checkpoint)
                    position = result.checkpoint
                }
                throw SessionEndedByReuse(position: position)
            }
            guard let accountId = session.accountId else { throw AccountsError.sessionNotFound }
            let (account, _) = try await account(accountId)
            guard !account.isDeleted else { throw AccountsError.sessionEnded }
            let role = Identity.Role(rawValue: account.role) ?? .member
            return .append([try EventCatalog.encode(refreshed, metadata: metadata)]) { result in (accountId, role, result.checkpoint) }
        }
        return (try await tokens(accountId: accountId, role: role, refresh: next, now: now), position)
    }

    /// Ends one of the caller's sessions; someone else's is "not found".
    func revokeSession(_ sessionId: UUID, of accountId: UUID, reason: String, metadata: EventMetadata) async throws -> Checkpoint? {
        let now = clock.now()
        return try await handler.handle(Streams.session(sessionId), load: { try await session(sessionId) }) { session, _ in
            guard session.accountId == accountId else { throw AccountsError.sessionNotFound }
            guard let revoked = session.revoke(reason: reason, now: now) else { return .answer(nil) }
            return .append([try EventCatalog.encode(revoked, metadata: metadata)]) { $0.checkpoint }
        }
    }

    /// Ends every live session of the account but `keep`.
    func revokeSessions(of accountId: UUID, except keep: UUID?, reason: String, metadata: EventMetadata) async throws -> Checkpoint? {
        let now = clock.now()
        var last: Checkpoint?
        for session in try await liveSessionIds(of: accountId, now: now) where session != keep {
            if let checkpoint = try? await revokeSession(session, of: accountId, reason: reason, metadata: metadata) { last = checkpoint }
        }
        return last
    }

    /// The sessions the account opened that may still hold a working token at `now`, from
    /// its index stream (not the read model, which may lag): ending them all must not miss
    /// one. Those opened longer ago than a session can last are left out
    /// (``SessionState/mayStillBeLive(openedAt:now:accessTokenLifetime:)``), so a password
    /// change reads and ends the sessions of the last three months, not of every sign-in ever.
    private func liveSessionIds(of accountId: UUID, now: Date) async throws -> [UUID] {
        try await store.read(stream: Streams.accountSessions(accountId)).compactMap { recorded in
            guard SessionState.mayStillBeLive(openedAt: recorded.recordedAt, now: now, accessTokenLifetime: accessTokenLifetime) else { return nil }
            return (try CommonsEvents.catalog.decode(recorded) as? SessionOpened)?.sessionId
        }
    }

    // MARK: Profile

    /// The account's state and its opened personal data.
    func profile(of accountId: UUID) async throws -> (AccountState, PersonalData) {
        let account = try AccountState.replay(try await Streams.load(Streams.account(accountId), from: store).events).requireActive()
        guard let sealed = account.personal, let personal = try await sealer.open(sealed, as: PersonalData.self) else {
            throw AccountsError.accountNotFound
        }
        return (account, personal)
    }

    func updateProfile(
        of accountId: UUID, expectedVersion: Int64?, change: (inout PersonalData, inout UUID?) throws -> Void, metadata: EventMetadata
    ) async throws -> (AccountState, PersonalData, Checkpoint) {
        var updated = PersonalData(email: "", displayName: "")
        return try await handler.handle(
            Streams.account(accountId), ifMatch: expectedVersion,
            load: {
                let (account, personal) = try await profile(of: accountId)
                updated = personal
                return (account, account.version)
            }
        ) { account, _ in
            var avatar = account.avatarImageId
            try change(&updated, &avatar)
            let event = ProfileChanged(accountId: accountId, personal: try await sealer.seal(updated, for: accountId), avatarImageId: avatar)
            let personal = updated
            return .append([try EventCatalog.encode(event, metadata: metadata)]) { result in
                var state = account
                state.evolve(event)
                return (state, personal, result.checkpoint)
            }
        }
    }

    func changePassword(of accountId: UUID, current: String, new: String, keeping session: UUID, metadata: EventMetadata) async throws -> Checkpoint {
        var problems: [String: [String]] = [:]
        if let problem = PasswordPolicy.lengthProblem(current) { problems["currentPassword"] = [problem] }
        let newProblems = PasswordPolicy.problems(with: new)
        if !newProblems.isEmpty { problems["newPassword"] = newProblems }
        guard problems.isEmpty else { throw AccountsError.invalid(problems) }
        let account = try AccountState.replay(try await Streams.load(Streams.account(accountId), from: store).events).requireActive()
        guard let sealed = account.passwordHash, let hash = try await sealer.open(sealed, as: String.self),
            try await hasher.verify(current, hash: hash)
        else { throw AccountsError.invalid(["currentPassword": ["is not your current password"]]) }
        let changed = PasswordChanged(
            accountId: accountId, passwordHash: try await sealer.seal(try await hasher.hash(new), for: accountId), keptSessionId: session)
        let position = try await appendToAccount(accountId, changed, metadata: metadata)
        return try await revokeSessions(of: accountId, except: session, reason: "password changed", metadata: metadata) ?? position
    }

    // MARK: Password reset

    /// Mails a single-use reset token if the email belongs to an account; says nothing either way.
    func requestPasswordReset(email text: String, metadata: EventMetadata) async throws {
        let now = clock.now()
        // Too long to be anyone's: refused for its length alone, so the answer still tells nothing.
        guard text.count <= EmailAddress.maximumLength else {
            throw AccountsError.invalid(["email": ["must be at most \(EmailAddress.maximumLength) characters"]])
        }
        guard let email = EmailAddress(text), let accountId = try await accountId(for: email) else { return }
        let token = BearerSecret.new()
        // Counted before anything is sent, at the stream's exact version: requests racing each other take turns.
        let mailed = try await handler.handle(
            Streams.resetMail(accountId), load: { try await Streams.load(Streams.resetMail(accountId), from: store) }
        ) {
            sent, _ in
            let lastHour = sent.compactMap { ($0 as? PasswordResetMailed)?.at }.filter { now.timeIntervalSince($0) < 3_600 }
            guard lastHour.count < Self.resetMailsPerHour else { return .answer(false) }
            return .append([try EventCatalog.encode(PasswordResetMailed(resetId: token.id, at: now), metadata: metadata)]) { _ in true }
        }
        guard mailed else { return }
        let requested = PasswordResetRequested(
            resetId: token.id, accountId: accountId, tokenHash: token.hash, expiresAt: now.addingTimeInterval(resetTokenLifetime))
        _ = try await handler.start(
            Streams.passwordReset(token.id), with: [try EventCatalog.encode(requested, metadata: metadata)],
            orThrow: WriteConflict(stream: Streams.passwordReset(token.id)))
        try await mailer.send(
            to: email.normalized, subject: "Reset your Commons password",
            body: "Use this code within an hour to choose a new password:\n\n\(token.token)\n\nIf you did not ask for this, ignore this message.")
    }

    func confirmPasswordReset(token text: String, newPassword: String, metadata: EventMetadata) async throws -> Checkpoint {
        let now = clock.now()
        let problems = PasswordPolicy.problems(with: newPassword)
        guard problems.isEmpty else { throw AccountsError.invalid(["newPassword": problems]) }
        guard let token = BearerSecret(text) else { throw AccountsError.resetTokenInvalid }
        let recorded = try await store.read(stream: Streams.passwordReset(token.id))
        guard recorded.count == 1, let request = recorded.first, let requested = try CommonsEvents.catalog.decode(request) as? PasswordResetRequested,
            requested.tokenHash == token.hash, requested.expiresAt > now
        else {
            throw AccountsError.resetTokenInvalid
        }
        // A code asked for before the password last changed (by its owner, or with another
        // code) no longer works: whoever changed it meant the old one to end.
        let changes = try await store.read(stream: Streams.account(requested.accountId))
        guard !changes.contains(where: { $0.type == PasswordChanged.eventType && $0.recordedAt >= request.recordedAt }) else {
            throw AccountsError.resetTokenInvalid
        }
        // Used at the same moment by another request: this one is refused.
        _ = try await handler.claim(
            Streams.passwordReset(token.id), at: 1,
            with: [
                try EventCatalog.encode(PasswordResetCompleted(resetId: token.id, at: now), metadata: metadata)
            ], orThrow: AccountsError.resetTokenInvalid)
        let accountId = requested.accountId
        let changed = PasswordChanged(
            accountId: accountId, passwordHash: try await sealer.seal(try await hasher.hash(newPassword), for: accountId), keptSessionId: nil)
        let position = try await appendToAccount(accountId, changed, metadata: metadata)
        return try await revokeSessions(of: accountId, except: nil, reason: "password reset", metadata: metadata) ?? position
    }

    // MARK: Roles and deletion

    func setRole(of accountId: UUID, to role: Identity.Role, metadata: EventMetadata) async throws -> Checkpoint {
        try await handler.handle(Streams.account(accountId), load: { try await account(accountId) }) { account, _ in
            guard try account.requireActive().role != role.rawValue else { return .answer(try await store.head()) }
            return .append([try EventCatalog.encode(RoleChanged(accountId: accountId, role: role.rawValue), metadata: metadata)]) { $0.checkpoint }
        }
    }

    /// Deletes the account: deletes its photos, records the deletion, ends its sessions,
    /// gives its email back, and destroys its personal-data key, which makes its personal
    /// data unreadable everywhere.
    /// Refuses unless `session` began (its sign-in) within ``SessionState/recentAuthentication``:
    /// a phone left unlocked, or a stolen refresh token, cannot delete the account.
    func requireRecentSignIn(_ session: UUID) async throws {
        let now = clock.now()
        let state = SessionState.replay(try await Streams.load(Streams.session(session), from: store).events)
        guard state.isRecentSignIn(now: now) else { throw AccountsError.reauthenticationRequired }
    }

    /// Deletes the account, in an order that a retry after a crash at any step finishes:
    /// photos, then the email (released while its address is still readable), then the key
    /// that seals the personal data, and only then `AccountDeleted` and the sessions. A retry
    /// that finds the key already gone goes straight on to the rest.
    func delete(accountId: UUID, metadata: EventMetadata) async throws -> Checkpoint {
        let now = clock.now()
        let account = try AccountState.replay(try await Streams.load(Streams.account(accountId), from: store).events).requireActive()
        // Pictures someone else uploaded too stay theirs.
        _ = try await blobs.removeOwner(accountId)
        // Nil when a first try destroyed the key already; it released the email before that.
        if let sealed = account.personal, let personal = try await sealer.open(sealed, as: PersonalData.self) {
            try await mailer.forget(address: personal.email)
            for stream in [try emailStream(personal.email), Streams.unkeyedEmail(personal.email)] {
                try await handler.handle(stream, load: { try await Streams.load(stream, from: store) }) { reservations, _ in
                    guard let reserved = reservations.last as? EmailReserved, try await holder(of: reserved) == accountId else {
                        return .answer(())
                    }
                    return .append([try EventCatalog.encode(EmailReleased(), metadata: metadata)]) { _ in }
                }
            }
            // Unreadable from now on: nothing in the log says whose the address was.
            if let addressKey = personal.addressKeyId { try await vault.destroyKey(for: addressKey) }
        }
        try await vault.destroyKey(for: accountId)
        // The first answers kept for its retries hold what it posted, in clear.
        _ = try await idempotency?.forget(caller: accountId.lowercasedText)
        var last = try await appendToAccount(accountId, AccountDeleted(accountId: accountId, deletedAt: now), metadata: metadata)
        if let revoked = try await revokeSessions(of: accountId, except: nil, reason: "account deleted", metadata: metadata) { last = revoked }
        return last
    }
}
