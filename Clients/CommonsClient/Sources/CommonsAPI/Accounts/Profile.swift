import Foundation

/// The owner's view of their account, with personal data (`GET /v1/me`).
public struct Me: Codable, Sendable, Equatable {
    public var id: UUID
    public var email: String
    public var displayName: String
    public var phone: String?
    public var homeLocation: Coordinate?
    public var avatarImageId: UUID?
    /// `member` or `admin`.
    public var role: String
    public var memberSince: Date?

    public init(
        id: UUID, email: String, displayName: String, phone: String?, homeLocation: Coordinate?, avatarImageId: UUID?, role: String,
        memberSince: Date?
    ) {
        self.id = id
        self.email = email
        self.displayName = displayName
        self.phone = phone
        self.homeLocation = homeLocation
        self.avatarImageId = avatarImageId
        self.role = role
        self.memberSince = memberSince
    }
}

/// What anyone sees of an account, nothing private (`GET /v1/users/{id}`).
public struct PublicProfile: Codable, Sendable, Equatable {
    public var id: UUID
    public var displayName: String
    public var avatarImageId: UUID?
    public var memberSince: Date?

    public init(id: UUID, displayName: String, avatarImageId: UUID?, memberSince: Date?) {
        self.id = id
        self.displayName = displayName
        self.avatarImageId = avatarImageId
        self.memberSince = memberSince
    }
}

/// `PATCH /v1/me`: a field left nil is kept; `.clear` (JSON `null`) clears an optional one.
public struct ProfileChange: Codable, Sendable, Equatable {
    public var displayName: String?
    public var phone: PatchValue<String>?
    public var avatarImageId: PatchValue<UUID>?
    public var homeLocation: PatchValue<Coordinate>?

    enum CodingKeys: String, CodingKey { case displayName, phone, avatarImageId, homeLocation }

    public init(
        displayName: String? = nil, phone: PatchValue<String>? = nil, avatarImageId: PatchValue<UUID>? = nil,
        homeLocation: PatchValue<Coordinate>? = nil
    ) {
        self.displayName = displayName
        self.phone = phone
        self.avatarImageId = avatarImageId
        self.homeLocation = homeLocation
    }

    /// Tells an absent key (keep) from `null` (clear), which a synthesized decoder does not.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        displayName = try container.decodeIfPresent(String.self, forKey: .displayName)
        phone = try PatchValue(container, .phone)
        avatarImageId = try PatchValue(container, .avatarImageId)
        homeLocation = try PatchValue(container, .homeLocation)
    }
}
