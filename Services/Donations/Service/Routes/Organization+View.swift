import CommonsAPI
import Contracts
import DonationsDomain
import Foundation
import Geo

// The donations API answers CommonsAPI's types, the ones the SDK decodes; these build them
// from the service's state, its events and its read model.

extension CommonsAPI.Organization {
    /// The view of an organisation as its stream tells it; nil when it does not exist.
    init?(_ state: OrganizationState) {
        guard let id = state.id, let draft = state.draft else { return nil }
        let point = draft.location.flatMap { GeoCoordinate(lat: $0.lat, lon: $0.lon) }
        self.init(
            id: id, slug: draft.slug, name: draft.name, kind: draft.kind.rawValue, mission: draft.mission, description: draft.description,
            homepage: draft.homepage, logoImageId: draft.logoImageId, categories: draft.categories, tags: draft.tags,
            rating: draft.rating, verified: state.verified, currency: CurrencyCode(rawValue: draft.currency),
            minimumDonationMinor: draft.minimumDonationMinor, suggestedAmountsMinor: draft.suggestedAmountsMinor, address: draft.address,
            location: point.map { Coordinate(lat: $0.lat, lon: $0.lon) }, directionsURL: point?.directionsLink,
            openingHours: draft.openingHours,
            acceptedCategories: draft.acceptedCategories.map(ListingCategory.init),
            impactEstimates: state.estimates.reversed().map(ImpactEstimate.init),
            version: state.version)
    }
}

extension ImpactEstimate {
    /// The estimate an `ImpactEstimateAdded` event added.
    init(_ event: ImpactEstimateAdded) {
        self.init(
            id: event.estimateId, outcomeUnit: event.outcomeUnit, costPerOutcomeMinor: event.costPerOutcomeMinor,
            currency: CurrencyCode(rawValue: event.currency), source: event.source, sourceURL: event.sourceURL, publishedOn: event.publishedOn,
            addedAt: event.addedAt)
    }

    /// The outcomes `amountMinor` of `currency` buys at this estimate.
    func outcomes(amountMinor: Int, currency: String) -> Double? {
        DonationsDomain.Impact.outcomes(
            amountMinor: amountMinor, currency: currency, costPerOutcomeMinor: costPerOutcomeMinor, costCurrency: self.currency.rawValue)
    }
}

extension Wallet {
    /// A wallet's balances and its `recent` latest movements, newest first.
    init(_ state: WalletState, recent: Int = 20) {
        self.init(
            balances: state.balances.sorted { $0.key < $1.key }.map { Balance(currency: CurrencyCode(rawValue: $0.key), amountMinor: $0.value) },
            entries: state.entries.suffix(recent).reversed().map {
                Entry(
                    id: $0.id, kind: $0.kind.rawValue, amountMinor: $0.amountMinor, currency: CurrencyCode(rawValue: $0.currency),
                    organizationId: $0.organizationId, at: $0.at)
            },
            version: state.version)
    }
}
