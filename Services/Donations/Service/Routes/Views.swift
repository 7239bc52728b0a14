import Contracts
import DonationsDomain
import Foundation
import Geo
import ServiceKit

// The JSON shapes of the donations API.

/// An organisation as `GET /v1/organizations/{id}` shows it.
struct OrganizationView: Codable, Sendable {
    var id: UUID
    var slug: String
    var name: String
    var kind: OrganizationKind
    var mission: String
    var description: String
    var homepage: String?
    var logoImageId: UUID?
    var categories: [String]
    var tags: [String]
    var rating: OrganizationRating?
    var verified: Bool
    var currency: String
    var minimumDonationMinor: Int
    var suggestedAmountsMinor: [Int]
    var address: String?
    var location: Coordinate?
    /// Apple Maps directions to the location, when there is one.
    var directionsURL: String?
    var openingHours: [OpeningHours]
    var acceptedCategories: [String]
    /// Every estimate, newest first; the first is the one in force.
    var impactEstimates: [EstimateView]
    var version: Int64
}

extension OrganizationView {
    /// The view of an organisation as its stream tells it; nil when it does not exist.
    init?(_ state: OrganizationState) {
        guard let id = state.id, let draft = state.draft else { return nil }
        let point = draft.location.flatMap { GeoCoordinate(lat: $0.lat, lon: $0.lon) }
        self.init(
            id: id, slug: draft.slug, name: draft.name, kind: draft.kind, mission: draft.mission, description: draft.description,
            homepage: draft.homepage, logoImageId: draft.logoImageId, categories: draft.categories, tags: draft.tags, rating: draft.rating,
            verified: state.verified, currency: draft.currency, minimumDonationMinor: draft.minimumDonationMinor,
            suggestedAmountsMinor: draft.suggestedAmountsMinor, address: draft.address, location: draft.location,
            directionsURL: point?.directionsLink, openingHours: draft.openingHours,
            acceptedCategories: draft.acceptedCategories, impactEstimates: state.estimates.reversed().map(EstimateView.init),
            version: state.version)
    }
}

/// A short reference to an organisation inside other resources.
struct OrganizationRef: Codable, Sendable {
    var id: UUID
    var slug: String
    var name: String
}

/// One impact estimate, with its source and date.
struct EstimateView: Codable, Sendable {
    var id: UUID
    var outcomeUnit: String
    var costPerOutcomeMinor: Int
    var currency: String
    var source: String
    var sourceURL: String?
    var publishedOn: String
    var addedAt: Date

    init(_ event: ImpactEstimateAdded) {
        id = event.estimateId
        outcomeUnit = event.outcomeUnit
        costPerOutcomeMinor = event.costPerOutcomeMinor
        currency = event.currency
        source = event.source
        sourceURL = event.sourceURL
        publishedOn = event.publishedOn
        addedAt = event.addedAt
    }

    init(
        id: UUID, outcomeUnit: String, costPerOutcomeMinor: Int, currency: String, source: String, sourceURL: String?, publishedOn: String,
        addedAt: Date
    ) {
        self.id = id
        self.outcomeUnit = outcomeUnit
        self.costPerOutcomeMinor = costPerOutcomeMinor
        self.currency = currency
        self.source = source
        self.sourceURL = sourceURL
        self.publishedOn = publishedOn
        self.addedAt = addedAt
    }

    /// The outcomes `amountMinor` of `currency` buys at this estimate.
    func outcomes(amountMinor: Int, currency: String) -> Double? {
        Impact.outcomes(amountMinor: amountMinor, currency: currency, costPerOutcomeMinor: costPerOutcomeMinor, costCurrency: self.currency)
    }
}

/// A donation, as its donor sees it.
struct DonationView: Codable, Sendable {
    var id: UUID
    var organization: OrganizationRef
    var amountMinor: Int
    var currency: String
    var visibility: DonationVisibility
    var message: String?
    var recurringId: UUID?
    var month: String?
    var donatedAt: Date
}

/// `GET /v1/wallet`.
struct WalletView: Codable, Sendable {
    struct Balance: Codable, Sendable {
        var currency: String
        var amountMinor: Int
    }

    var balances: [Balance]
    /// The most recent movements, newest first.
    var entries: [WalletState.Entry]
    var version: Int64

    init(_ state: WalletState, recent: Int = 20) {
        balances = state.balances.sorted { $0.key < $1.key }.map { Balance(currency: $0.key, amountMinor: $0.value) }
        entries = Array(state.entries.suffix(recent).reversed())
        version = state.version
    }
}

/// A monthly donation.
struct RecurringView: Codable, Sendable {
    var id: UUID
    var organizationId: UUID
    var amountMinor: Int
    var currency: String
    var visibility: DonationVisibility
    var startMonth: String
    var status: String
    var lastRunMonth: String?
    var lastOutcome: String?
}

/// One post of the public feed.
struct PostView: Codable, Sendable {
    var id: UUID
    var donationId: UUID
    var accountId: UUID
    var organization: OrganizationRef
    var caption: String
    var imageId: UUID?
    var sharedAt: Date
}

/// A page of a list.
struct Page<Item: Codable & Sendable>: Codable, Sendable {
    var items: [Item]
    var nextCursor: String?
}

extension Page: JSONWritable where Item: JSONWritable {
    func writeJSONMembers(_ object: inout JSONObjectWriter) throws {
        try object.objects("items", items)
        if let nextCursor { object.member("nextCursor", nextCursor) }
    }
}
