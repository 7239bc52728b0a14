import Contracts
import DonationsDomain
import EventLog
import Foundation
import Testing

/// Given events, when a donation is decided, then an event or a refusal.
@Suite("donation decisions")
struct WalletDecisionTests {
    let account = UUID()
    let organizationId = UUID()
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let sealed = Sealed(keyId: UUID(), box: "x")

    func organization(verified: Bool = true, minimum: Int = 500, estimates: [ImpactEstimateAdded] = []) -> OrganizationState {
        let draft = OrganizationDraft(
            name: "Against Malaria", slug: "against-malaria", kind: .charity, mission: "Nets", currency: "USD",
            minimumDonationMinor: minimum)
        var events = OrganizationState.register(draft, id: organizationId)
        if verified { events.append(OrganizationVerificationChanged(organizationId: organizationId, verified: true, at: now)) }
        events += estimates as [any EventContract]
        return OrganizationState.replay(events, version: Int64(events.count))
    }

    func wallet(toppedUp amounts: [Int], currency: String = "USD") -> WalletState {
        var wallet = WalletState()
        for amount in amounts {
            wallet.evolve(WalletToppedUp(accountId: account, topUpId: UUID(), amountMinor: amount, currency: currency, charge: sealed, at: now))
        }
        return wallet
    }

    func decide(
        _ amount: Int, currency: String = "USD", organization: OrganizationState? = nil, wallet: WalletState? = nil
    ) throws(DonationsError) -> DonationMade {
        try DonationRequest.decide(
            donationId: UUID(), accountId: account, amountMinor: amount, currency: currency, visibility: .public,
            message: nil, organization: organization ?? self.organization(), wallet: wallet ?? self.wallet(toppedUp: [2_000]), now: now)
    }

    @Test("given a wallet of 20.00, a donation of 5.00 is made and the balance is 15.00")
    func donationWithinBalance() throws {
        var wallet = wallet(toppedUp: [2_000])
        let donation = try decide(500, wallet: wallet)
        #expect(donation.amountMinor == 500)
        #expect(donation.organizationId == organizationId)
        wallet.evolve(donation)
        #expect(wallet.balance(in: "USD") == 1_500)
        #expect(wallet.version == 2)
        #expect(wallet.donation(donation.donationId) == donation)
    }

    @Test("more than the balance is refused with the balance")
    func overdraw() {
        #expect(throws: DonationsError.insufficientFunds(balanceMinor: 2_000, currency: "USD")) { try decide(2_001) }
    }

    @Test("a balance in another currency does not pay")
    func otherCurrencyBalance() {
        #expect(throws: DonationsError.insufficientFunds(balanceMinor: 0, currency: "USD")) {
            try decide(600, wallet: wallet(toppedUp: [5_000], currency: "EUR"))
        }
    }

    @Test("below the minimum, to an unverified organisation or in another currency is refused")
    func organizationRules() {
        #expect(throws: DonationsError.belowMinimum(minimumMinor: 500, currency: "USD")) { try decide(499) }
        #expect(throws: DonationsError.organizationNotVerified) { try decide(600, organization: organization(verified: false)) }
        #expect(throws: DonationsError.wrongCurrency(expected: "USD")) { try decide(600, currency: "EUR") }
    }

    @Test("the donation records the impact estimate in force when it is made")
    func estimateInForce() throws {
        let old = ImpactEstimateAdded(
            organizationId: organizationId, estimateId: UUID(), outcomeUnit: "life saved", costPerOutcomeMinor: 550_000,
            currency: "USD", source: "GiveWell", sourceURL: nil, publishedOn: "2023", addedAt: now.addingTimeInterval(-100))
        let future = ImpactEstimateAdded(
            organizationId: organizationId, estimateId: UUID(), outcomeUnit: "life saved", costPerOutcomeMinor: 500_000,
            currency: "USD", source: "GiveWell", sourceURL: nil, publishedOn: "2024", addedAt: now.addingTimeInterval(100))
        let donation = try decide(1_000, organization: organization(estimates: [old, future]))
        #expect(donation.estimateId == old.estimateId)
        #expect(Impact.outcomes(amountMinor: 1_100_000, currency: "USD", at: old) == 2)
        #expect(Impact.outcomes(amountMinor: 1_100_000, currency: "EUR", at: old) == nil)
    }
}
