import Contracts
import Foundation

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
