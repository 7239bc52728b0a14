import Foundation

// MARK: Models (donations)

/// A rating of an organisation by an evaluator.
public struct OrganizationRating: Codable, Sendable, Equatable {
    public var value: Double
    public var scale: Double
    public var source: String
    /// `YYYY-MM-DD`.
    public var date: String

    public init(value: Double, scale: Double, source: String, date: String) {
        self.value = value
        self.scale = scale
        self.source = source
        self.date = date
    }
}

/// When a donation centre is open.
public struct OpeningHours: Codable, Sendable, Equatable {
    /// `mon` … `sun`.
    public var day: String
    /// `HH:mm`, local time.
    public var opens: String
    public var closes: String

    public init(day: String, opens: String, closes: String) {
        self.day = day
        self.opens = opens
        self.closes = closes
    }
}

/// The fields of an organisation, for registering (`name`, `slug`, `kind`, `mission`,
/// `currency`, `minimumDonationMinor` required) and changing one (all optional).
public struct OrganizationFields: Codable, Sendable, Equatable {
    public var name: String?
    public var slug: String?
    /// `charity`, `centre` or `both`.
    public var kind: String?
    public var mission: String?
    public var description: String?
    public var homepage: String?
    public var logoImageId: UUID?
    public var categories: [String]?
    public var tags: [String]?
    public var rating: OrganizationRating?
    public var currency: CurrencyCode?
    public var minimumDonationMinor: Int?
    public var suggestedAmountsMinor: [Int]?
    public var address: String?
    public var location: Coordinate?
    public var openingHours: [OpeningHours]?
    /// The kinds of listed items a donation centre takes.
    public var acceptedCategories: [ListingCategory]?

    public init(
        name: String? = nil, slug: String? = nil, kind: String? = nil, mission: String? = nil, description: String? = nil,
        homepage: String? = nil, logoImageId: UUID? = nil, categories: [String]? = nil, tags: [String]? = nil,
        rating: OrganizationRating? = nil, currency: CurrencyCode? = nil, minimumDonationMinor: Int? = nil,
        suggestedAmountsMinor: [Int]? = nil, address: String? = nil, location: Coordinate? = nil,
        openingHours: [OpeningHours]? = nil, acceptedCategories: [ListingCategory]? = nil
    ) {
        self.name = name
        self.slug = slug
        self.kind = kind
        self.mission = mission
        self.description = description
        self.homepage = homepage
        self.logoImageId = logoImageId
        self.categories = categories
        self.tags = tags
        self.rating = rating
        self.currency = currency
        self.minimumDonationMinor = minimumDonationMinor
        self.suggestedAmountsMinor = suggestedAmountsMinor
        self.address = address
        self.location = location
        self.openingHours = openingHours
        self.acceptedCategories = acceptedCategories
    }
}

/// An impact estimate: what one outcome costs, by a source.
public struct ImpactEstimate: Codable, Sendable, Equatable {
    public var id: UUID
    public var outcomeUnit: String
    public var costPerOutcomeMinor: Int
    public var currency: CurrencyCode
    public var source: String
    public var sourceURL: String?
    public var publishedOn: String
    public var addedAt: Date
}

/// `POST /v1/organizations/{id}/impact-estimates` (admins).
public struct NewImpactEstimate: Codable, Sendable, Equatable {
    public var outcomeUnit: String
    public var costPerOutcomeMinor: Int
    public var currency: CurrencyCode
    public var source: String
    public var sourceURL: String?
    public var publishedOn: String

    public init(
        outcomeUnit: String, costPerOutcomeMinor: Int, currency: CurrencyCode, source: String, sourceURL: String? = nil,
        publishedOn: String
    ) {
        self.outcomeUnit = outcomeUnit
        self.costPerOutcomeMinor = costPerOutcomeMinor
        self.currency = currency
        self.source = source
        self.sourceURL = sourceURL
        self.publishedOn = publishedOn
    }
}

/// A charity or donation centre.
public struct Organization: Codable, Sendable, Equatable {
    public var id: UUID
    public var slug: String
    public var name: String
    public var kind: String
    public var mission: String
    public var description: String
    public var homepage: String?
    public var logoImageId: UUID?
    public var categories: [String]
    public var tags: [String]
    public var rating: OrganizationRating?
    public var verified: Bool
    public var currency: CurrencyCode
    public var minimumDonationMinor: Int
    public var suggestedAmountsMinor: [Int]
    public var address: String?
    public var location: Coordinate?
    public var directionsURL: String?
    public var openingHours: [OpeningHours]
    /// The kinds of listed items a donation centre takes.
    public var acceptedCategories: [ListingCategory]
    /// Newest first; the first is in force.
    public var impactEstimates: [ImpactEstimate]
    public var version: Int64

    public var etag: ETag { ETag(version: version) }
}

/// A short reference to an organisation inside other resources.
public struct OrganizationRef: Codable, Sendable, Equatable {
    public var id: UUID
    public var slug: String
    public var name: String
}

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

/// A wallet: balances per currency and the most recent movements.
public struct Wallet: Codable, Sendable, Equatable {
    public struct Balance: Codable, Sendable, Equatable {
        public var currency: CurrencyCode
        public var amountMinor: Int
    }

    public struct Entry: Codable, Sendable, Equatable {
        public var id: UUID
        /// `top-up` or `donation`.
        public var kind: String
        /// Positive in, negative out.
        public var amountMinor: Int
        public var currency: CurrencyCode
        public var organizationId: UUID?
        public var at: Date
    }

    public var balances: [Balance]
    /// Newest first.
    public var entries: [Entry]
    public var version: Int64

    /// The balance in `currency` (0 when there is none).
    public func balance(_ currency: CurrencyCode) -> Int { balances.first { $0.currency == currency }?.amountMinor ?? 0 }
}

/// What a top-up answers (never the card number).
public struct TopUp: Codable, Sendable, Equatable {
    public var id: UUID
    public var amountMinor: Int
    public var currency: CurrencyCode
    public var balanceMinor: Int
    public var at: Date
    /// True when the server runs the simulated card processor: no money moved.
    public var simulated: Bool?
}

/// A donation, as its donor sees it.
public struct Donation: Codable, Sendable, Equatable {
    public var id: UUID
    public var organization: OrganizationRef
    public var amountMinor: Int
    public var currency: CurrencyCode
    /// `public` or `anonymous`.
    public var visibility: String
    public var message: String?
    public var recurringId: UUID?
    public var month: String?
    public var donatedAt: Date
}

/// `POST /v1/donations`.
public struct NewDonation: Codable, Sendable, Equatable {
    /// The organisation's id or slug.
    public var organization: String
    public var amountMinor: Int
    public var currency: CurrencyCode
    public var message: String?
    /// `public` (default) or `anonymous`.
    public var visibility: String?

    public init(organization: String, amountMinor: Int, currency: CurrencyCode, message: String? = nil, visibility: String? = nil) {
        self.organization = organization
        self.amountMinor = amountMinor
        self.currency = currency
        self.message = message
        self.visibility = visibility
    }
}

/// What a donation answers: the donation and the balance after it.
public struct MadeDonation: Codable, Sendable, Equatable {
    public var donation: Donation
    public var balanceMinor: Int
}

/// A receipt for a donation.
public struct Receipt: Codable, Sendable, Equatable {
    public var receiptNumber: String
    public var donationId: UUID
    public var donorAccountId: UUID
    public var organization: OrganizationRef
    public var amountMinor: Int
    public var currency: CurrencyCode
    public var donatedAt: Date
    public var statement: String
    /// True when the server runs the simulated card processor: no money was received.
    public var simulated: Bool?
}

/// One year's donations, in all and by category.
public struct YearlyTotals: Codable, Sendable, Equatable {
    public struct Total: Codable, Sendable, Equatable {
        public var currency: CurrencyCode
        public var amountMinor: Int
        public var donations: Int
    }

    public struct CategoryTotal: Codable, Sendable, Equatable {
        public var category: String
        public var currency: CurrencyCode
        public var amountMinor: Int
    }

    public var year: Int
    public var totals: [Total]
    public var byCategory: [CategoryTotal]
}

/// A monthly donation.
public struct RecurringDonation: Codable, Sendable, Equatable {
    public var id: UUID
    public var organizationId: UUID
    public var amountMinor: Int
    public var currency: CurrencyCode
    public var visibility: String
    public var startMonth: String
    public var status: String
    public var lastRunMonth: String?
    public var lastOutcome: String?
}

/// A shared donation in the public feed.
public struct DonationPost: Codable, Sendable, Equatable {
    public var id: UUID
    public var donationId: UUID
    public var accountId: UUID
    public var organization: OrganizationRef
    public var caption: String
    public var imageId: UUID?
    public var sharedAt: Date
}

/// Someone who donated publicly to an organisation.
public struct Supporter: Codable, Sendable, Equatable {
    public var accountId: UUID
    /// Their public profile's path.
    public var profile: String
    public var donations: Int
    public var lastDonatedAt: Date
}

/// What my donations to one organisation achieved.
public struct Impact: Codable, Sendable, Equatable {
    public struct Achieved: Codable, Sendable, Equatable {
        public var outcomes: Double
        public var estimates: [ImpactEstimate]
    }

    public var organization: OrganizationRef
    public var currency: CurrencyCode
    public var donatedMinor: Int
    public var donations: Int
    public var outcomeUnit: String?
    /// Each donation at the estimate in force when it was made.
    public var atDonation: Achieved?
    /// All of them at today's estimate.
    public var today: Achieved?
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
        struct Body: Codable, Sendable { var amountMinor: Int; var currency: CurrencyCode; var cardNumber: String }
        return try await client.call(
            try Endpoint(
                .post, "/v1/wallet/top-ups",
                json: Body(
                    amountMinor: amountMinor, currency: currency,
                    cardNumber: cardNumber), idempotent: true))
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
        struct Body: Codable, Sendable { var caption: String; var imageId: UUID? }
        return try await client.call(
            try Endpoint(
                .post, "/v1/donations/\(segment(donation))/posts", json: Body(caption: caption, imageId: imageId),
                idempotent: true))
    }

    /// The public feed of shared donations, newest first.
    public func posts(limit: Int? = nil, cursor: String? = nil) async throws -> Page<DonationPost> {
        try await client.call(Endpoint(.get, "/v1/donation-posts", query: query([("limit", limit), ("cursor", cursor)]), auth: .none))
    }

    /// Sets up a monthly donation; the first is made this month.
    public func startRecurring(
        organization: String, amountMinor: Int, currency: CurrencyCode,
        visibility: String? = nil
    ) async throws -> RecurringDonation {
        struct Body: Codable, Sendable { var organization: String; var amountMinor: Int; var currency: CurrencyCode; var visibility: String? }
        return try await client.call(
            try Endpoint(
                .post, "/v1/donations/recurring",
                json: Body(
                    organization: organization, amountMinor: amountMinor,
                    currency: currency, visibility: visibility),
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
