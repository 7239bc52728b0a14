import Foundation

/// What can go wrong in an accounts command. The service maps each to a problem document.
public enum AccountsError: Error, Equatable, Sendable {
    case invalid([String: [String]])
    case emailTaken
    /// Unknown email and wrong password alike, so the answer tells nothing.
    case invalidCredentials
    case lockedOut(until: Date)
    case accountNotFound
    case sessionNotFound
    case sessionEnded
    /// A refresh token was used twice: the session has been revoked.
    case refreshTokenReused
    /// The refresh token was rotated moments ago by another request (two refreshes racing):
    /// the session lives on, and the tokens that request got are the ones to use.
    case refreshSuperseded
    /// Deleting an account needs a sign-in within ``SessionState/recentAuthentication``.
    case reauthenticationRequired
    case resetTokenInvalid
}
