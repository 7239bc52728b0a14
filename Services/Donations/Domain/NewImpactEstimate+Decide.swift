import CommonsAPI
import Contracts
import Foundation

/// A new impact estimate as an administrator enters it (`CommonsAPI.NewImpactEstimate`).
extension NewImpactEstimate {
    /// The event that adds this estimate to `organization`, or every bad field.
    public func decide(for organization: OrganizationState, estimateId: UUID, now: Date) throws(DonationsError) -> ImpactEstimateAdded {
        var problems = FieldProblems()
        let unit = problems.text(outcomeUnit, field: "outcomeUnit", length: 1...120)
        problems.require(
            (1...Amounts.largestMinor).contains(costPerOutcomeMinor), "must be a positive number of minor units", for: "costPerOutcomeMinor")
        problems.currency(currency.rawValue)
        let source = problems.text(self.source, field: "source", length: 1...200)
        if let sourceURL, problems.url(sourceURL, field: "sourceURL") {
            let url = URL(string: sourceURL)
            problems.require((url?.scheme == "https" || url?.scheme == "http") && url?.host != nil, "must be an http(s) URL", for: "sourceURL")
        }
        problems.require(OrganizationDraft.isPublicationDate(publishedOn), "must be YYYY-MM-DD, YYYY-MM or YYYY", for: "publishedOn")
        try problems.check()
        guard let id = organization.id, organization.exists else { throw .organizationNotFound }
        return ImpactEstimateAdded(
            organizationId: id, estimateId: estimateId, outcomeUnit: unit, costPerOutcomeMinor: costPerOutcomeMinor,
            currency: currency.rawValue, source: source, sourceURL: sourceURL, publishedOn: publishedOn, addedAt: now)
    }
}
