import Foundation

/// `POST /v1/password-resets`: asks for a reset code by email.
public struct PasswordResetRequest: Codable, Sendable, Equatable {
    public var email: String

    public init(email: String) {
        self.email = email
    }
}

/// `POST /v1/password-resets/confirm`: a new password with the code that came by email.
public struct PasswordReset: Codable, Sendable, Equatable {
    public var token: String
    public var newPassword: String

    public init(token: String, newPassword: String) {
        self.token = token
        self.newPassword = newPassword
    }
}

/// `PUT /v1/me/password`: a new password, given the current one.
public struct PasswordChange: Codable, Sendable, Equatable {
    public var currentPassword: String
    public var newPassword: String

    public init(currentPassword: String, newPassword: String) {
        self.currentPassword = currentPassword
        self.newPassword = newPassword
    }
}
