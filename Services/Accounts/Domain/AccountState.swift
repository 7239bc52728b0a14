import Contracts
import EventLog
import Foundation

/// An account as its stream tells it. Personal data stays sealed here; the service opens
/// it with the account's key when it needs it.
public struct AccountState: Sendable, Equatable {
    public var accountId: UUID?
    public var role = "member"
    public var personal: Sealed?
    public var passwordHash: Sealed?
    public var avatarImageId: UUID?
    public var registeredAt: Date?
    public var isDeleted = false
    /// The stream's version: the `ETag` of the profile and the expected version of the next append.
    public var version: Int64 = 0

    public init() {}

    /// Folds a stream's events, oldest first.
    public static func replay(_ events: [any EventContract]) -> AccountState {
        events.reduce(into: AccountState()) { $0.evolve($1) }
    }

    public mutating func evolve(_ event: any EventContract) {
        version += 1
        switch event {
        case let registered as AccountRegistered:
            accountId = registered.accountId
            role = registered.role
            personal = registered.personal
            passwordHash = registered.passwordHash
            registeredAt = registered.registeredAt
        case let changed as ProfileChanged:
            personal = changed.personal
            avatarImageId = changed.avatarImageId
        case let changed as PasswordChanged:
            passwordHash = changed.passwordHash
        case let changed as RoleChanged:
            role = changed.role
        case is AccountDeleted:
            isDeleted = true
            personal = nil
            passwordHash = nil
            avatarImageId = nil
        default:
            break
        }
    }

    /// The account if it exists and is not deleted.
    public func requireActive() throws -> AccountState {
        guard accountId != nil, !isDeleted else { throw AccountsError.accountNotFound }
        return self
    }
}

/// The failed sign-ins since the last success, from a `signin-<account>` stream.
public extension SignInLockout {
    static func replay(_ events: [any EventContract]) -> SignInLockout {
        events.reduce(into: SignInLockout()) { lockout, event in
            switch event {
            case let failed as SignInFailed: lockout = lockout.recordingFailure(at: failed.at, network: nil)
            case let attempted as SignInAttempted: lockout = lockout.recordingFailure(at: attempted.at, network: attempted.network)
            case is SignInSucceeded: lockout = SignInLockout()
            default: break
            }
        }
    }
}
