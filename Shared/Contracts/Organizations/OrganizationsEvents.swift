import EventLog
import Foundation

// Events of the `donations` service about organisations (charities and donation centres)
// that other services read (geo-search among them). They are the contract the donations
// service will append: it writes them, nobody else does. Stream: `organization-<organizationId>`.

/// What an organisation is: a charity (takes money), a donation centre (takes things), or both.
public enum OrganizationKind: String, Codable, Sendable, CaseIterable {
    case charity, centre, both
}

/// An organisation was registered. Written by the donations service.
/// Stream: `organization-<organizationId>`.
public struct OrganizationRegistered: EventContract, Equatable {
    public static let eventType = "OrganizationRegistered"
    public var organizationId: UUID
    public var slug: String
    public var name: String
    public var kind: OrganizationKind
    public var tags: [String]
    /// The listing categories a donation centre accepts, e.g. `Furniture`.
    public var acceptedCategories: [String]
    /// Where it is, if it has a place people can go to (an organisation's address is public).
    public var location: Coordinate?
    public var address: String?

    public init(
        organizationId: UUID, slug: String, name: String, kind: OrganizationKind, tags: [String],
        acceptedCategories: [String], location: Coordinate?, address: String?
    ) {
        self.organizationId = organizationId
        self.slug = slug
        self.name = name
        self.kind = kind
        self.tags = tags
        self.acceptedCategories = acceptedCategories
        self.location = location
        self.address = address
    }
}

/// An organisation's details changed; every field is the new whole value. Written by the
/// donations service. Stream: `organization-<organizationId>`.
public struct OrganizationUpdated: EventContract, Equatable {
    public static let eventType = "OrganizationUpdated"
    public var organizationId: UUID
    public var slug: String
    public var name: String
    public var kind: OrganizationKind
    public var tags: [String]
    public var acceptedCategories: [String]
    public var location: Coordinate?
    public var address: String?

    public init(
        organizationId: UUID, slug: String, name: String, kind: OrganizationKind, tags: [String],
        acceptedCategories: [String], location: Coordinate?, address: String?
    ) {
        self.organizationId = organizationId
        self.slug = slug
        self.name = name
        self.kind = kind
        self.tags = tags
        self.acceptedCategories = acceptedCategories
        self.location = location
        self.address = address
    }
}
