import Foundation

/// Filters of `GET /v1/organizations`.
public struct OrganizationQuery: Sendable, Equatable {
    public var category: String?
    public var tag: String?
    public var kind: String?
    public var verified: Bool?
    public var q: String?
    public var limit: Int?
    public var cursor: String?

    public init(
        category: String? = nil, tag: String? = nil, kind: String? = nil, verified: Bool? = nil, q: String? = nil,
        limit: Int? = nil, cursor: String? = nil
    ) {
        self.category = category
        self.tag = tag
        self.kind = kind
        self.verified = verified
        self.q = q
        self.limit = limit
        self.cursor = cursor
    }
}

extension Organization {
    /// The `ETag` of this version, for `If-Match`.
    public var etag: ETag { ETag(version: version) }
}

// MARK: Endpoints (donations)

/// The `donations` service: `/v1/organizations`, `/v1/wallet`, `/v1/donations`,
/// `/v1/donation-posts`, `/v1/impact`. Money calls carry an `Idempotency-Key`, so a retry
/// never charges or donates twice.
public struct DonationsEndpoints: Sendable {
    let client: CommonsClient

    /// Browses and searches organisations, by name.
    public func organizations(_ filter: OrganizationQuery = .init()) async throws -> Page<Organization> {
        try await client.call(
            Endpoint(
                .get, "/v1/organizations",
                query: query([
                    ("category", filter.category), ("tag", filter.tag), ("kind", filter.kind), ("verified", filter.verified), ("q", filter.q),
                    ("limit", filter.limit), ("cursor", filter.cursor),
                ]), auth: .none))
    }

    /// One organisation by id or slug, with every impact estimate.
    public func organization(_ idOrSlug: String) async throws -> Tagged<Organization> {
        try await client.tagged(Endpoint(.get, "/v1/organizations/\(segment(idOrSlug))", auth: .none))
    }

    /// Registers an organisation (admins).
    public func registerOrganization(_ fields: OrganizationFields) async throws -> Organization {
        try await client.call(try Endpoint(.post, "/v1/organizations", json: fields, idempotent: true))
    }

    /// Changes an organisation (admins); `ifMatch` required.
    public func updateOrganization(_ id: UUID, _ fields: OrganizationFields, ifMatch: ETag) async throws -> Tagged<Organization> {
        try await client.tagged(try Endpoint(.patch, "/v1/organizations/\(segment(id))", json: fields, ifMatch: ifMatch))
    }

    /// Verifies an organisation or withdraws its verification (admins).
    public func setVerified(_ id: UUID, _ verified: Bool) async throws -> Organization {
        try await client.call(try Endpoint(.put, "/v1/organizations/\(segment(id))/verification", json: ["verified": verified]))
    }

    /// Adds an impact estimate (admins); earlier ones stay.
    public func addImpactEstimate(_ organization: UUID, _ estimate: NewImpactEstimate) async throws -> ImpactEstimate {
        try await client.call(try Endpoint(.post, "/v1/organizations/\(segment(organization))/impact-estimates", json: estimate, idempotent: true))
    }

    /// People who donated publicly, most recent first.
    public func supporters(_ organization: String, limit: Int? = nil, cursor: String? = nil) async throws -> Page<Supporter> {
        try await client.call(
            Endpoint(
                .get, "/v1/organizations/\(segment(organization))/supporters",
                query: query([("limit", limit), ("cursor", cursor)]), auth: .none))
    }

    /// My balances and most recent movements.
    public func wallet() async throws -> Tagged<Wallet> {
        try await client.tagged(Endpoint(.get, "/v1/wallet"))
    }

    /// Adds money from a card (402 when declined).
    public func topUp(amountMinor: Int, currency: CurrencyCode, cardNumber: String) async throws -> TopUp {
        try await client.call(
            try Endpoint(
                .post, "/v1/wallet/top-ups", json: NewTopUp(amountMinor: amountMinor, currency: currency, cardNumber: cardNumber),
                idempotent: true))
    }

    /// Donates from my wallet (409 with the balance when it is short).
    public func donate(_ donation: NewDonation) async throws -> MadeDonation {
        try await client.call(try Endpoint(.post, "/v1/donations", json: donation, idempotent: true))
    }

    /// My donations, newest first.
    public func donations(limit: Int? = nil, cursor: String? = nil) async throws -> Page<Donation> {
        try await client.call(Endpoint(.get, "/v1/donations", query: query([("limit", limit), ("cursor", cursor)])))
    }

    /// One of my donations.
    public func donation(_ id: UUID) async throws -> Donation {
        try await client.call(Endpoint(.get, "/v1/donations/\(segment(id))"))
    }

    /// A receipt for one of my donations.
    public func receipt(_ id: UUID) async throws -> Receipt {
        try await client.call(Endpoint(.get, "/v1/donations/\(segment(id))/receipt"))
    }

    /// My donations of a year (default: this one).
    public func totals(year: Int? = nil) async throws -> YearlyTotals {
        try await client.call(Endpoint(.get, "/v1/donations/totals", query: query([("year", year)])))
    }

    /// Shares one of my public donations in the feed.
    public func share(_ donation: UUID, caption: String, imageId: UUID? = nil) async throws -> DonationPost {
        try await client.call(
            try Endpoint(
                .post, "/v1/donations/\(segment(donation))/posts", json: NewDonationPost(caption: caption, imageId: imageId),
                idempotent: true))
    }

    /// The public feed of shared donations, newest first.
    public func posts(limit: Int? = nil, cursor: String? = nil) async throws -> Page<DonationPost> {
        try await client.call(Endpoint(.get, "/v1/donation-posts", query: query([("limit", limit), ("cursor", cursor)]), auth: .none))
    }

    /// Sets up a monthly donation; the first is made this month.
    public func startRecurring(
        organization: String, amountMinor: Int, currency: CurrencyCode,
        visibility: DonorVisibility? = nil
    ) async throws -> RecurringDonation {
        try await client.call(
            try Endpoint(
                .post, "/v1/donations/recurring",
                json: NewRecurringDonation(organization: organization, amountMinor: amountMinor, currency: currency, visibility: visibility),
                idempotent: true))
    }

    /// My monthly donations.
    public func recurring() async throws -> [RecurringDonation] {
        try await client.call(Endpoint(.get, "/v1/donations/recurring"), as: Items<RecurringDonation>.self).items
    }

    /// Changes a monthly donation's amount from next month on.
    public func changeRecurring(_ id: UUID, amountMinor: Int) async throws -> RecurringDonation {
        try await client.call(try Endpoint(.patch, "/v1/donations/recurring/\(segment(id))", json: ["amountMinor": amountMinor]))
    }

    /// Cancels a monthly donation.
    public func cancelRecurring(_ id: UUID) async throws {
        try await client.perform(Endpoint(.delete, "/v1/donations/recurring/\(segment(id))"))
    }

    /// What my donations achieved, per organisation.
    public func impact() async throws -> [Impact] {
        try await client.call(Endpoint(.get, "/v1/impact"), as: Items<Impact>.self).items
    }
}
