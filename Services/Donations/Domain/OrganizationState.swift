import Contracts
import EventLog
import Foundation

/// An organisation as its stream tells it, and the decisions that depend on it.
public struct OrganizationState: Sendable, Equatable {
    public private(set) var id: UUID?
    public private(set) var version: Int64 = 0
    public private(set) var draft: OrganizationDraft?
    public private(set) var verified = false
    /// Every impact estimate, oldest first; none is ever replaced.
    public private(set) var estimates: [ImpactEstimateAdded] = []

    public init() {}

    public static func replay(_ events: [any EventContract], version: Int64) -> OrganizationState {
        var state = OrganizationState()
        for event in events { state.evolve(event) }
        state.version = version
        return state
    }

    public var exists: Bool { draft != nil }

    public mutating func evolve(_ event: any EventContract) {
        switch event {
        case let registered as OrganizationRegistered:
            // The profile follows in the same batch; until it is read, the organisation takes
            // nothing (it is not verified), so these placeholders decide nothing.
            id = registered.organizationId
            draft = OrganizationDraft(
                name: registered.name, slug: registered.slug, kind: registered.kind, mission: "", tags: registered.tags,
                currency: "USD", minimumDonationMinor: 1, address: registered.address, location: registered.location,
                acceptedCategories: registered.acceptedCategories)
        case let updated as OrganizationUpdated:
            draft?.name = updated.name
            draft?.kind = updated.kind
            draft?.tags = updated.tags
            draft?.acceptedCategories = updated.acceptedCategories
            draft?.location = updated.location
            draft?.address = updated.address
        case let profile as OrganizationProfileChanged:
            draft?.mission = profile.mission
            draft?.description = profile.description
            draft?.homepage = profile.homepage
            draft?.logoImageId = profile.logoImageId
            draft?.categories = profile.categories
            draft?.rating = profile.rating
            draft?.currency = profile.currency
            draft?.minimumDonationMinor = profile.minimumDonationMinor
            draft?.suggestedAmountsMinor = profile.suggestedAmountsMinor
            draft?.openingHours = profile.openingHours
        case let verification as OrganizationVerificationChanged:
            verified = verification.verified
        case let estimate as ImpactEstimateAdded:
            estimates.append(estimate)
        default:
            break
        }
        version += 1
    }

    // MARK: Decisions

    /// The events that register a new organisation from a checked draft.
    public static func register(_ draft: OrganizationDraft, id: UUID) -> [any EventContract] {
        [
            OrganizationRegistered(
                organizationId: id, slug: draft.slug, name: draft.name, kind: draft.kind, tags: draft.tags,
                acceptedCategories: draft.acceptedCategories, location: draft.location, address: draft.address),
            profile(of: draft, id: id),
        ]
    }

    /// The events that change the organisation to `new` (a checked draft); none when nothing changed.
    /// The slug never changes: links to an organisation keep working.
    public func update(to new: OrganizationDraft) throws(DonationsError) -> [any EventContract] {
        guard let id, let old = draft else { throw .organizationNotFound }
        var new = new
        new.slug = old.slug
        var events: [any EventContract] = []
        if (new.name, new.kind, new.tags, new.acceptedCategories, new.location, new.address)
            != (old.name, old.kind, old.tags, old.acceptedCategories, old.location, old.address)
        {
            events.append(
                OrganizationUpdated(
                    organizationId: id, slug: old.slug, name: new.name, kind: new.kind, tags: new.tags,
                    acceptedCategories: new.acceptedCategories, location: new.location, address: new.address))
        }
        let profile = Self.profile(of: new, id: id)
        if profile != Self.profile(of: old, id: id) { events.append(profile) }
        return events
    }

    /// Verification set to `verified`; nothing when it is so already.
    public func verify(_ verified: Bool, now: Date) throws(DonationsError) -> OrganizationVerificationChanged? {
        guard let id, exists else { throw .organizationNotFound }
        return verified == self.verified ? nil : OrganizationVerificationChanged(organizationId: id, verified: verified, at: now)
    }

    /// Checks that the organisation takes `amountMinor` of `currency`: it exists, is verified,
    /// takes that currency, and the amount is at least its minimum.
    public func accepts(amountMinor: Int, currency: String) throws(DonationsError) {
        guard let draft else { throw .organizationNotFound }
        guard verified else { throw .organizationNotVerified }
        guard currency == draft.currency else { throw .wrongCurrency(expected: draft.currency) }
        guard amountMinor >= draft.minimumDonationMinor else {
            throw .belowMinimum(minimumMinor: draft.minimumDonationMinor, currency: draft.currency)
        }
    }

    /// The estimate in force at `date`: the last one added at or before it.
    public func estimate(at date: Date) -> ImpactEstimateAdded? {
        estimates.last { $0.addedAt <= date }
    }

    private static func profile(of draft: OrganizationDraft, id: UUID) -> OrganizationProfileChanged {
        OrganizationProfileChanged(
            organizationId: id, mission: draft.mission, description: draft.description, homepage: draft.homepage, logoImageId: draft.logoImageId,
            categories: draft.categories, rating: draft.rating, currency: draft.currency, minimumDonationMinor: draft.minimumDonationMinor,
            suggestedAmountsMinor: draft.suggestedAmountsMinor, openingHours: draft.openingHours)
    }
}
