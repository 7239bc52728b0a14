import Codecs
import CommonsAPI
import Foundation

/// `Data/donations.json` (or `COMMONS_DONATIONS_FILE`): what the demo accounts give.
struct DemoDonationFile: Decodable, Sendable {
    struct TopUp: Decodable, Sendable {
        var who: String
        var amountMinor: Int
        var currency: String
    }

    struct Donation: Decodable, Sendable {
        var who: String
        /// The organisation's slug.
        var organization: String
        var amountMinor: Int
        var currency: String
        var message: String?
        var visibility: String
        /// The caption of a donation post that shares it, if it is shared.
        var share: String?
    }

    var topUps: [TopUp]
    var donations: [Donation]
}

/// The demo accounts top up their wallets with the simulated processor's test card and
/// donate, so that "my donations", an organisation's supporters and the donation posts
/// have entries. Skipped when the first demo account has donated already, and said so (not
/// failed) when the stack takes no card payments.
func seedDonors(_ api: SeedClient, _ state: inout SeedState, _ report: (String) -> Void) async throws {
    guard
        let (file, url) = try state.demoFile(
            DemoDonationFile.self, "donations.json", overriddenBy: "COMMONS_DONATIONS_FILE", step: "donations",
            report: report)
    else { return }
    let first = try await state.accessToken(of: DemoAccounts.people[0].email, api: api)
    let made = try await api.get("/v1/donations?limit=1", token: first)
    if made.status == 200, let ids = try? made.itemIds(), !ids.isEmpty {
        report("donations: the demo donations were made before")
        return
    }
    for (index, topUp) in file.topUps.enumerated() {
        let token = try await state.accessToken(of: topUp.who, api: api)
        let answer = try await api.post(
            "/v1/wallet/top-ups",
            NewTopUp(amountMinor: topUp.amountMinor, currency: CurrencyCode(rawValue: topUp.currency), cardNumber: simulatedCard),
            token: token, idempotencyKey: "seed top-up \(index)")
        guard answer.status == 201 else {
            report("donations: topping up a wallet answered \(answer.status) (\(answer.detail)); no demo donations")
            return
        }
    }
    var shared = 0
    for (index, donation) in file.donations.enumerated() {
        let token = try await state.accessToken(of: donation.who, api: api)
        let answer = try await api.post(
            "/v1/donations",
            NewDonation(
                organization: donation.organization, amountMinor: donation.amountMinor,
                currency: CurrencyCode(rawValue: donation.currency), message: donation.message,
                visibility: DonorVisibility(rawValue: donation.visibility)),
            token: token, idempotencyKey: "seed donation \(index)")
        guard answer.status == 201 else {
            throw CommandFailure("donations: \(donation.who) donating to \(donation.organization) answered \(answer.status): \(answer.detail)")
        }
        guard let caption = donation.share else { continue }
        let id = try answer.decode(MadeDonation.self).donation.id.lowercasedText
        let post = try await api.post(
            "/v1/donations/\(id)/posts", NewDonationPost(caption: caption), token: token, idempotencyKey: "seed post \(index)")
        guard post.status == 201 else { throw CommandFailure("donations: sharing a donation answered \(post.status): \(post.detail)") }
        shared += 1
    }
    report("donations: \(file.topUps.count) wallet top-ups (simulated card), \(file.donations.count) donations, \(shared) shared, from \(url.path)")
}

/// The simulated processor's card that it approves (docs/api.md, "Donations").
private let simulatedCard = "4242424242424242"
