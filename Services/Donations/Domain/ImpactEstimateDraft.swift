import Contracts
import Foundation

/// A new impact estimate as an administrator enters it.
public struct ImpactEstimateDraft: Sendable, Equatable {
    public var outcomeUnit: String
    public var costPerOutcomeMinor: Int
    public var currency: String
    public var source: String
    public var sourceURL: String?
    public var publishedOn: String

    public init(outcomeUnit: String, costPerOutcomeMinor: Int, currency: String, source: String, sourceURL: String?, publishedOn: String) {
        self.outcomeUnit = outcomeUnit
        self.costPerOutcomeMinor = costPerOutcomeMinor
        self.currency = currency
        self.source = source
        self.sourceURL = sourceURL
        self.publishedOn = publishedOn
    }

    /// The event that adds this estimate to `organization`, or every bad field.
    public func decide(for organization: OrganizationState, estimateId: UUID, now: Date) throws(DonationsError) -> ImpactEstimateAdded {
        var problems = FieldProblems()
        let unit = problems.text(outcomeUnit, field: "outcomeUnit", length: 1...120)
        problems.require(
            (1...Amounts.largestMinor).contains(costPerOutcomeMinor), "must be a positive number of minor units", for: "costPerOutcomeMinor")
        problems.currency(currency)
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
            currency: currency, source: source, sourceURL: sourceURL, publishedOn: publishedOn, addedAt: now)
    }
}

/// What money achieves at an estimate.
public enum Impact {
    /// The outcomes `amountMinor` buys at `estimate`; nil when the currencies differ (no
    /// exchange rate is assumed).
    public static func outcomes(amountMinor: Int, currency: String, at estimate: ImpactEstimateAdded) -> Double? {
        outcomes(amountMinor: amountMinor, currency: currency, costPerOutcomeMinor: estimate.costPerOutcomeMinor, costCurrency: estimate.currency)
    }

    /// The outcomes `amountMinor` buys when one costs `costPerOutcomeMinor` of `costCurrency`.
    public static func outcomes(amountMinor: Int, currency: String, costPerOutcomeMinor: Int, costCurrency: String) -> Double? {
        guard currency == costCurrency, costPerOutcomeMinor > 0 else { return nil }
        return Double(amountMinor) / Double(costPerOutcomeMinor)
    }
}
