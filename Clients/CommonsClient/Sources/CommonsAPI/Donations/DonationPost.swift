import Foundation

/// A shared donation in the public feed.
public struct DonationPost: Codable, Sendable, Equatable {
    public var id: UUID
    public var donationId: UUID
    public var accountId: UUID
    public var organization: OrganizationRef
    public var caption: String
    public var imageId: UUID?
    public var sharedAt: Date

    public init(
        id: UUID, donationId: UUID, accountId: UUID, organization: OrganizationRef, caption: String, imageId: UUID?, sharedAt: Date
    ) {
        self.id = id
        self.donationId = donationId
        self.accountId = accountId
        self.organization = organization
        self.caption = caption
        self.imageId = imageId
        self.sharedAt = sharedAt
    }
}

/// `POST /v1/donations/{id}/posts`: shares one of my public donations.
public struct NewDonationPost: Codable, Sendable, Equatable {
    public var caption: String
    public var imageId: UUID?

    public init(caption: String, imageId: UUID? = nil) {
        self.caption = caption
        self.imageId = imageId
    }
}

/// Someone who donated publicly to an organisation.
public struct Supporter: Codable, Sendable, Equatable {
    public var accountId: UUID
    /// Their public profile's path (accounts service).
    public var profile: String
    public var donations: Int
    public var lastDonatedAt: Date

    public init(accountId: UUID, profile: String, donations: Int, lastDonatedAt: Date) {
        self.accountId = accountId
        self.profile = profile
        self.donations = donations
        self.lastDonatedAt = lastDonatedAt
    }
}
