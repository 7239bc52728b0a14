import EventLog
import Foundation

// Events of the `accounts` service. Personal data (email, display name, phone, home
// location, password hash) never appears in clear: it is sealed with a per-account key
// kept outside the log (see `Sealed`), so deleting the key makes it unreadable everywhere.

/// A person registered. Stream: `account-<accountId>`.
public struct AccountRegistered: EventContract, Equatable {
    public static let eventType = "AccountRegistered"
    public var accountId: UUID
    public var role: String
    /// `PersonalData`, sealed.
    public var personal: Sealed
    /// The bcrypt hash of the password, sealed.
    public var passwordHash: Sealed
    public var registeredAt: Date

    public init(accountId: UUID, role: String, personal: Sealed, passwordHash: Sealed, registeredAt: Date) {
        self.accountId = accountId
        self.role = role
        self.personal = personal
        self.passwordHash = passwordHash
        self.registeredAt = registeredAt
    }
}

/// Reserves an email for an account, so that no one else registers it. Stream:
/// `email-<keyed hash>` (an unkeyed `email-<sha256>` for reservations made before they were keyed).
public struct EmailReserved: EventContract, Equatable {
    public static let eventType = "EmailReserved"
    /// 2: the account is sealed (``account``), so that once it is deleted nothing in the
    /// log says whose the address was. 1 named it in clear (``accountId``).
    public static let schemaVersion = 2
    /// The account, in clear: reservations of schema 1 only.
    public var accountId: UUID?
    /// The account's id (a `UUID`) sealed with its address key (``PersonalData/addressKeyId``),
    /// a key of its own under a random id, destroyed when the account is deleted.
    public var account: Sealed?

    public init(accountId: UUID? = nil, account: Sealed? = nil) {
        self.accountId = accountId
        self.account = account
    }

    struct Version1: Decodable { var accountId: UUID }

    static let upcasters: [Upcaster<EmailReserved>] = [.from(version: 1, as: Version1.self) { EmailReserved(accountId: $0.accountId) }]
}

/// Gives an email back when its account is deleted, or when a registration that never
/// finished left it reserved. Stream: `email-<keyed hash>`.
public struct EmailReleased: EventContract, Equatable {
    public static let eventType = "EmailReleased"
    /// 2: names no account. 1 named it in clear (``accountId``).
    public static let schemaVersion = 2
    /// The account that held the address: releases of schema 1 only.
    public var accountId: UUID?

    public init(accountId: UUID? = nil) { self.accountId = accountId }

    struct Version1: Decodable { var accountId: UUID }

    static let upcasters: [Upcaster<EmailReleased>] = [.from(version: 1, as: Version1.self) { EmailReleased(accountId: $0.accountId) }]
}

/// The person changed their profile; `personal` is the whole new `PersonalData`, sealed.
/// Stream: `account-<accountId>`.
public struct ProfileChanged: EventContract, Equatable {
    public static let eventType = "ProfileChanged"
    public var accountId: UUID
    public var personal: Sealed
    /// Public: an image id, not personal data.
    public var avatarImageId: UUID?

    public init(accountId: UUID, personal: Sealed, avatarImageId: UUID?) {
        self.accountId = accountId
        self.personal = personal
        self.avatarImageId = avatarImageId
    }
}

/// The password changed (by the person, or through a reset). Stream: `account-<accountId>`.
public struct PasswordChanged: EventContract, Equatable {
    public static let eventType = "PasswordChanged"
    public var accountId: UUID
    public var passwordHash: Sealed
    /// The session that changed it (kept), or nil for a reset (every session ends).
    public var keptSessionId: UUID?

    public init(accountId: UUID, passwordHash: Sealed, keptSessionId: UUID?) {
        self.accountId = accountId
        self.passwordHash = passwordHash
        self.keptSessionId = keptSessionId
    }
}

/// The account's role changed. Stream: `account-<accountId>`.
public struct RoleChanged: EventContract, Equatable {
    public static let eventType = "RoleChanged"
    public var accountId: UUID
    public var role: String

    public init(accountId: UUID, role: String) {
        self.accountId = accountId
        self.role = role
    }
}

/// The account is gone; every service drops the person's personal data. Stream: `account-<accountId>`.
public struct AccountDeleted: EventContract, Equatable {
    public static let eventType = "AccountDeleted"
    public var accountId: UUID
    public var deletedAt: Date

    public init(accountId: UUID, deletedAt: Date) {
        self.accountId = accountId
        self.deletedAt = deletedAt
    }
}

/// A sign-in failed for a known account; repeated failures lock sign-in with back-off.
/// Stream: `signin-<accountId>`. Written before attempts were reserved (see
/// ``SignInAttempted``); still counted when replayed.
public struct SignInFailed: EventContract, Equatable {
    public static let eventType = "SignInFailed"
    public var accountId: UUID
    public var at: Date

    public init(accountId: UUID, at: Date) {
        self.accountId = accountId
        self.at = at
    }
}

/// A sign-in to an address began, before its password was checked: the attempt counts as a
/// failure until a ``SignInSucceeded`` follows. Appended at the stream's exact version, so
/// concurrent attempts take turns and each sees the ones before it: a burst of wrong
/// passwords cannot all pass the lockout before any is counted. Addresses no account has are
/// counted alike, so the lockout tells nobody which addresses exist. Stream:
/// `signinthrottle-<HMAC-SHA256 of the normalised address, under a key derived from the
/// accounts secret>`.
public struct SignInAttempted: EventContract, Equatable {
    public static let eventType = "SignInAttempted"
    /// 2: the attempt names the client's network (``network``). 1 did not.
    public static let schemaVersion = 2
    /// The account of the address, in attempts written before reservations were sealed
    /// (nil for an address no account had); nil in every attempt since, which names no
    /// account (a throttle stream must not say whose address it counts).
    public var accountId: UUID?
    /// The client's network (its IPv4 /24 or IPv6 /64) as 16 bits of a keyed hash, four hex
    /// digits: enough to tell the attempts of one address's owner from a stranger's, too few
    /// to say which network it was. Nil in attempts of schema 1.
    public var network: String?
    public var at: Date

    public init(accountId: UUID?, network: String?, at: Date) {
        self.accountId = accountId
        self.network = network
        self.at = at
    }

    /// Schema 1, with no network.
    struct Version1: Decodable {
        var accountId: UUID?
        var at: Date
    }

    static let upcasters: [Upcaster<SignInAttempted>] = [
        .from(version: 1, as: Version1.self) { old in SignInAttempted(accountId: old.accountId, network: nil, at: old.at) }
    ]
}

/// A sign-in succeeded: the failure count starts again. Stream: `signinthrottle-<keyed hash>`
/// (`signin-<accountId>` before attempts were counted per address).
public struct SignInSucceeded: EventContract, Equatable {
    public static let eventType = "SignInSucceeded"
    /// 2: names no account (a throttle stream must not say whose address it counts). 1 did.
    public static let schemaVersion = 2
    /// Schema 1 only.
    public var accountId: UUID?
    public var at: Date

    public init(accountId: UUID? = nil, at: Date) {
        self.accountId = accountId
        self.at = at
    }

    struct Version1: Decodable {
        var accountId: UUID
        var at: Date
    }

    static let upcasters: [Upcaster<SignInSucceeded>] = [
        .from(version: 1, as: Version1.self) { SignInSucceeded(accountId: $0.accountId, at: $0.at) }
    ]
}

/// A session began. Stream: `session-<sessionId>`.
public struct SessionStarted: EventContract, Equatable {
    public static let eventType = "SessionStarted"
    /// 2: the device name is sealed with the account's key. 1 carried it in clear (see ``clearDevice``).
    public static let schemaVersion = 2
    public var sessionId: UUID
    public var accountId: UUID
    /// The device the person signed in from (the User-Agent, shortened, a `String`), sealed
    /// with the account's key; nil in a session of schema 1.
    public var device: Sealed?
    /// The device of a session of schema 1, which stored it in clear; nil from schema 2 on.
    public var clearDevice: String?
    /// SHA-256 of the refresh token handed out; the token itself is never stored.
    public var refreshTokenHash: String
    public var startedAt: Date

    public init(sessionId: UUID, accountId: UUID, device: Sealed, refreshTokenHash: String, startedAt: Date) {
        self.init(
            sessionId: sessionId, accountId: accountId, device: device, clearDevice: nil, refreshTokenHash: refreshTokenHash, startedAt: startedAt)
    }

    private init(sessionId: UUID, accountId: UUID, device: Sealed?, clearDevice: String?, refreshTokenHash: String, startedAt: Date) {
        self.sessionId = sessionId
        self.accountId = accountId
        self.device = device
        self.clearDevice = clearDevice
        self.refreshTokenHash = refreshTokenHash
        self.startedAt = startedAt
    }

    /// Schema 1, whose device was a plain string.
    struct Version1: Decodable {
        var sessionId: UUID
        var accountId: UUID
        var device: String
        var refreshTokenHash: String
        var startedAt: Date
    }

    static let upcasters: [Upcaster<SessionStarted>] = [
        .from(version: 1, as: Version1.self) { old in
            SessionStarted(
                sessionId: old.sessionId, accountId: old.accountId, device: nil, clearDevice: old.device,
                refreshTokenHash: old.refreshTokenHash, startedAt: old.startedAt)
        }
    ]
}

/// Lists a session under its account, so that every session of an account can be found
/// (and ended) from the log itself. Stream: `accountsessions-<accountId>`.
public struct SessionOpened: EventContract, Equatable {
    public static let eventType = "SessionOpened"
    public var sessionId: UUID

    public init(sessionId: UUID) { self.sessionId = sessionId }
}

/// The refresh token was rotated. Stream: `session-<sessionId>`.
public struct SessionRefreshed: EventContract, Equatable {
    public static let eventType = "SessionRefreshed"
    public var sessionId: UUID
    public var refreshTokenHash: String
    public var at: Date

    public init(sessionId: UUID, refreshTokenHash: String, at: Date) {
        self.sessionId = sessionId
        self.refreshTokenHash = refreshTokenHash
        self.at = at
    }
}

/// The session ended: logout, revocation, a reused refresh token, a password change or
/// deletion. Its tokens stop working in every service that has read this. Stream: `session-<sessionId>`.
public struct SessionRevoked: EventContract, Equatable {
    public static let eventType = "SessionRevoked"
    public var sessionId: UUID
    public var accountId: UUID
    public var reason: String
    public var at: Date

    public init(sessionId: UUID, accountId: UUID, reason: String, at: Date) {
        self.sessionId = sessionId
        self.accountId = accountId
        self.reason = reason
        self.at = at
    }
}

/// Someone asked to reset the password of an account. Stream: `passwordreset-<resetId>`.
public struct PasswordResetRequested: EventContract, Equatable {
    public static let eventType = "PasswordResetRequested"
    public var resetId: UUID
    public var accountId: UUID
    /// SHA-256 of the single-use token that was mailed.
    public var tokenHash: String
    public var expiresAt: Date

    public init(resetId: UUID, accountId: UUID, tokenHash: String, expiresAt: Date) {
        self.resetId = resetId
        self.accountId = accountId
        self.tokenHash = tokenHash
        self.expiresAt = expiresAt
    }
}

/// A password-reset code was mailed to an account's address. Stream: `resetmail-<accountId>`,
/// which bounds how many codes one address is sent in an hour.
public struct PasswordResetMailed: EventContract, Equatable {
    public static let eventType = "PasswordResetMailed"
    public var resetId: UUID
    public var at: Date

    public init(resetId: UUID, at: Date) {
        self.resetId = resetId
        self.at = at
    }
}

/// A reset token was used. Stream: `passwordreset-<resetId>`.
public struct PasswordResetCompleted: EventContract, Equatable {
    public static let eventType = "PasswordResetCompleted"
    public var resetId: UUID
    public var at: Date

    public init(resetId: UUID, at: Date) {
        self.resetId = resetId
        self.at = at
    }
}

/// A value sealed with the personal-data key of one account (AES-GCM, combined form,
/// base64). Once the key is destroyed it can never be opened again.
public struct Sealed: Codable, Sendable, Hashable {
    public var keyId: UUID
    public var box: String

    public init(keyId: UUID, box: String) {
        self.keyId = keyId
        self.box = box
    }
}

/// The personal data of an account, as sealed into its events.
public struct PersonalData: Codable, Sendable, Hashable {
    public var email: String
    public var displayName: String
    public var phone: String?
    public var homeLocation: Coordinate?
    /// The id of the key that seals the account's id in its email reservation
    /// (``EmailReserved/account``): random, so that nothing outside this sealed value ties the
    /// two together. Nil for accounts registered before reservations were sealed.
    public var addressKeyId: UUID?

    public init(email: String, displayName: String, phone: String? = nil, homeLocation: Coordinate? = nil, addressKeyId: UUID? = nil) {
        self.email = email
        self.displayName = displayName
        self.phone = phone
        self.homeLocation = homeLocation
        self.addressKeyId = addressKeyId
    }
}
