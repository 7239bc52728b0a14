import AccountsDomain
import CommonsAPI
import Contracts
import EventLog
import Foundation
import Testing

@Suite("accounts domain")
struct AccountsDomainTests {
    @Test("emails are trimmed and lowercased; malformed ones are refused")
    func emails() {
        #expect(EmailAddress("  Ada@Example.ORG ")?.normalized == "ada@example.org")
        for bad in ["", "ada", "ada@", "@example.org", "ada@example", "a da@example.org", "ada@@example.org", "ada@example..org"] {
            #expect(EmailAddress(bad) == nil, "\(bad)")
        }
    }

    @Test("passwords need 10 characters, at most 72 bytes, and must not be common")
    func passwords() {
        #expect(PasswordPolicy.problems(with: "short").contains("must be at least 10 characters"))
        #expect(PasswordPolicy.problems(with: "Password123") == ["is too common; choose another"])
        #expect(PasswordPolicy.problems(with: String(repeating: "é", count: 40)) == ["must be at most 72 bytes"])
        #expect(PasswordPolicy.problems(with: "correct horse battery").isEmpty)
    }

    @Test("a registration lists every bad field at once")
    func registrationProblems() {
        let problems = Registration(email: "nope", password: "123", displayName: " ").problems()
        #expect(Set(problems.keys) == ["email", "password", "displayName"])
        #expect(Registration(email: "a@b.co", password: "a long enough phrase", displayName: "Ada").problems().isEmpty)
    }

    @Test("from one network five failed sign-ins are free; then each wait doubles from 30 s, up to an hour")
    func lockout() {
        let start = Date(timeIntervalSince1970: 1_000_000)
        var lockout = SignInLockout()
        for n in 0..<5 { lockout = lockout.recordingFailure(at: start.addingTimeInterval(Double(n)), network: "a1") }
        #expect(lockout.lockedUntil(now: start.addingTimeInterval(5), network: "a1") == start.addingTimeInterval(4 + 30))
        #expect(lockout.lockedUntil(now: start.addingTimeInterval(40), network: "a1") == nil)
        lockout = lockout.recordingFailure(at: start.addingTimeInterval(40), network: "a1")
        #expect(lockout.lockedUntil(now: start.addingTimeInterval(41), network: "a1") == start.addingTimeInterval(40 + 60))
        for _ in 0..<20 { lockout = lockout.recordingFailure(at: start, network: "a1") }
        #expect(lockout.lockedUntil(now: start, network: "a1") == start.addingTimeInterval(3_600))
        // A success starts the count again.
        let replayed = SignInLockout.replay([SignInFailed(accountId: UUID(), at: start), SignInSucceeded(accountId: UUID(), at: start)])
        #expect(replayed == SignInLockout())
    }

    @Test("another network is not held back by one network's failures; past twenty failures every network waits a few seconds")
    func lockoutPerNetwork() {
        let start = Date(timeIntervalSince1970: 1_000_000)
        var lockout = SignInLockout()
        for n in 0..<19 { lockout = lockout.recordingFailure(at: start.addingTimeInterval(Double(n)), network: "a1") }
        let now = start.addingTimeInterval(19)
        #expect(lockout.lockedUntil(now: now, network: "a1") != nil)
        #expect(lockout.lockedUntil(now: now, network: "b2") == nil, "the owner on another network signs in at once")
        #expect(lockout.lockedUntil(now: now, network: nil) == nil)
        lockout = lockout.recordingFailure(at: now, network: "c3")
        #expect(lockout.lockedUntil(now: now, network: "b2") == now.addingTimeInterval(SignInLockout.gentlePause))
        #expect(lockout.lockedUntil(now: now.addingTimeInterval(SignInLockout.gentlePause), network: "b2") == nil)
        // Attempts recorded before networks were count as a network of their own.
        let legacy = SignInLockout.replay((0..<5).map { _ in SignInAttempted(accountId: nil, network: nil, at: start) })
        #expect(legacy.lockedUntil(now: start, network: nil) != nil)
        #expect(legacy.lockedUntil(now: start, network: "b2") == nil)
    }

    @Test("a client's network is its IPv4 /24 or IPv6 /64; an IPv4 client on a dual-stack socket is an IPv4 client")
    func clientNetworks() {
        #expect(ClientNetwork.of("203.0.113.7") == "203.0.113.0/24")
        #expect(ClientNetwork.of("203.0.113.250") == ClientNetwork.of("203.0.113.7"))
        #expect(ClientNetwork.of("203.0.114.7") != ClientNetwork.of("203.0.113.7"))
        #expect(ClientNetwork.of("::ffff:203.0.113.9") == "203.0.113.0/24")
        #expect(ClientNetwork.of("2001:db8:85a3:8d3:1319:8a2e:370:7348") == "2001:db8:85a3:8d3::/64")
        #expect(ClientNetwork.of("2001:db8:85a3:8d3::1") == ClientNetwork.of("2001:db8:85a3:8d3:ffff::2"))
        #expect(ClientNetwork.of("local") == "local")
    }

    @Test("given a started session, when the current refresh token is presented, then it rotates")
    func refreshRotates() throws {
        let (session, account) = (UUID(), UUID())
        let state = SessionState.replay([
            SessionStarted(sessionId: session, accountId: account, device: Sealed(keyId: account, box: ""), refreshTokenHash: "h1", startedAt: Date())
        ])
        let now = Date()
        #expect(
            try state.refresh(presentedHash: "h1", newHash: "h2", now: now) == SessionRefreshed(sessionId: session, refreshTokenHash: "h2", at: now))
    }

    @Test("a session ends 30 days after its last refresh, or 90 days after its sign-in however often it is refreshed")
    func sessionLifetimes() throws {
        let (session, account) = (UUID(), UUID())
        let signIn = Date(timeIntervalSince1970: 1_800_000_000)
        let day: TimeInterval = 86_400
        let idle = SessionState.replay([
            SessionStarted(sessionId: session, accountId: account, device: Sealed(keyId: account, box: ""), refreshTokenHash: "h1", startedAt: signIn)
        ])
        #expect(try idle.refresh(presentedHash: "h1", newHash: "h2", now: signIn.addingTimeInterval(29 * day)).refreshTokenHash == "h2")
        #expect(throws: AccountsError.sessionEnded) { try idle.refresh(presentedHash: "h1", newHash: "h2", now: signIn.addingTimeInterval(31 * day)) }

        var busy = idle
        for week in 1...12 {
            busy.evolve(SessionRefreshed(sessionId: session, refreshTokenHash: "w\(week)", at: signIn.addingTimeInterval(Double(week) * 7 * day)))
        }
        #expect(try busy.refresh(presentedHash: "w12", newHash: "n", now: signIn.addingTimeInterval(85 * day)).refreshTokenHash == "n")
        #expect(throws: AccountsError.sessionEnded) { try busy.refresh(presentedHash: "w12", newHash: "n", now: signIn.addingTimeInterval(91 * day)) }
        #expect(idle.isRecentSignIn(now: signIn.addingTimeInterval(9 * 60)))
        #expect(!idle.isRecentSignIn(now: signIn.addingTimeInterval(11 * 60)))
    }

    @Test("a session opened more than 90 days, an access token's life and a day of clock allowance ago can hold no working token")
    func sessionsPastTheirLife() throws {
        let (session, account) = (UUID(), UUID())
        let opened = Date(timeIntervalSince1970: 1_800_000_000)
        let (day, accessLife): (TimeInterval, TimeInterval) = (86_400, 15 * 60)
        let lastChance = opened.addingTimeInterval(90 * day + accessLife + day)
        #expect(SessionState.mayStillBeLive(openedAt: opened, now: opened, accessTokenLifetime: accessLife))
        #expect(SessionState.mayStillBeLive(openedAt: opened, now: lastChance, accessTokenLifetime: accessLife))
        #expect(!SessionState.mayStillBeLive(openedAt: opened, now: lastChance.addingTimeInterval(1), accessTokenLifetime: accessLife))
        // Refreshed every week, it has still ended by itself, whatever recorded clock lagged by up to a day.
        var busy = SessionState.replay([
            SessionStarted(
                sessionId: session, accountId: account, device: Sealed(keyId: account, box: ""), refreshTokenHash: "h0",
                startedAt: opened.addingTimeInterval(day))
        ])
        for week in 1...13 {
            busy.evolve(SessionRefreshed(sessionId: session, refreshTokenHash: "w\(week)", at: opened.addingTimeInterval(Double(week) * 7 * day)))
        }
        #expect(busy.hasExpired(now: lastChance.addingTimeInterval(1)))
    }

    @Test("given a rotated session, when the replaced token is presented: within 30 s a race (superseded), later reuse")
    func refreshReuse() {
        let (session, account) = (UUID(), UUID())
        let rotatedAt = Date(timeIntervalSince1970: 1_800_000_000)
        let state = SessionState.replay([
            SessionStarted(
                sessionId: session, accountId: account, device: Sealed(keyId: account, box: ""), refreshTokenHash: "h1",
                startedAt: rotatedAt.addingTimeInterval(-60)),
            SessionRefreshed(sessionId: session, refreshTokenHash: "h2", at: rotatedAt),
        ])
        #expect(throws: AccountsError.refreshSuperseded) {
            try state.refresh(presentedHash: "h1", newHash: "h3", now: rotatedAt.addingTimeInterval(5))
        }
        #expect(throws: AccountsError.refreshTokenReused) {
            try state.refresh(presentedHash: "h1", newHash: "h3", now: rotatedAt.addingTimeInterval(31))
        }
        #expect(throws: AccountsError.sessionNotFound) { try state.refresh(presentedHash: "never", newHash: "h3", now: Date()) }
        #expect(state.revoke(reason: "reuse", now: Date())?.sessionId == session)
    }

    @Test("given a revoked session, when any token is presented, then the session has ended")
    func revokedSession() {
        let (session, account) = (UUID(), UUID())
        let state = SessionState.replay([
            SessionStarted(
                sessionId: session, accountId: account, device: Sealed(keyId: account, box: ""), refreshTokenHash: "h1", startedAt: Date()),
            SessionRevoked(sessionId: session, accountId: account, reason: "signed out", at: Date()),
        ])
        #expect(throws: AccountsError.sessionEnded) { try state.refresh(presentedHash: "h1", newHash: "h2", now: Date()) }
        #expect(state.revoke(reason: "again", now: Date()) == nil)
    }

    @Test("a deleted account forgets its sealed data and is not active")
    func deletedAccount() {
        let id = UUID()
        let sealed = Sealed(keyId: id, box: "x")
        let state = AccountState.replay([
            AccountRegistered(accountId: id, role: "member", personal: sealed, passwordHash: sealed, registeredAt: Date()),
            AccountDeleted(accountId: id, deletedAt: Date()),
        ])
        #expect(state.personal == nil)
        #expect(state.version == 2)
        #expect(throws: AccountsError.accountNotFound) { try state.requireActive() }
    }
}

@Suite("the cap on an account's live sessions")
struct SessionCapTests {
    @Test("a session starting beyond the cap ends the oldest others, never itself; under it, none")
    func oldestEnd() {
        let oldestFirst = (0..<5).map { _ in UUID() }
        let starting = UUID()
        let cap = SessionCap(limit: 3)
        #expect(cap.toEnd(live: oldestFirst, starting: starting) == Array(oldestFirst.prefix(3)))
        // The read model may already hold the one starting: it is not counted against itself.
        #expect(cap.toEnd(live: oldestFirst + [starting], starting: starting) == Array(oldestFirst.prefix(3)))
        #expect(cap.toEnd(live: Array(oldestFirst.prefix(2)), starting: starting).isEmpty)
        #expect(SessionCap(limit: 1).toEnd(live: oldestFirst, starting: starting) == oldestFirst)
    }
}
