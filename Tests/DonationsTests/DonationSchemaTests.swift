import CommonsAPI
import Foundation
import ServiceKit
import ServiceTestSupport
import Testing

@testable import DonationsService

/// The donations API answers CommonsAPI's types and declares their OpenAPI schemas by hand;
/// each type, with every optional set and with none, must be what its schema says.
@Suite("the donations API's schemas and CommonsAPI's types")
struct DonationSchemaTests {
    private static let at = Date(timeIntervalSince1970: 1_800_000_000)
    private static let ref = OrganizationRef(id: UUID(), slug: "nets", name: "Nets for All")
    private static let estimate = ImpactEstimate(
        id: UUID(), outcomeUnit: "bed net", costPerOutcomeMinor: 500, currency: .usd, source: "GiveWell", sourceURL: "https://example.org",
        publishedOn: "2026-01-01", addedAt: at)

    private static func organization(all: Bool) -> Organization {
        Organization(
            id: UUID(), slug: "nets", name: "Nets for All", kind: "charity", mission: "Nets", description: "", homepage: all ? "https://n.org" : nil,
            logoImageId: all ? UUID() : nil, categories: ["health"], tags: all ? ["malaria"] : [],
            rating: all ? OrganizationRating(value: 4, scale: 5, source: "GiveWell", date: "2026-01-01") : nil, verified: true, currency: .usd,
            minimumDonationMinor: 100, suggestedAmountsMinor: [1000], address: all ? "Main St 1" : nil,
            location: all ? Coordinate(lat: 52.5, lon: 13.4) : nil, directionsURL: all ? "https://maps.apple.com/?daddr=52.5,13.4" : nil,
            openingHours: all ? [OpeningHours(day: "mon", opens: "09:00", closes: "17:00")] : [],
            acceptedCategories: all ? ["Furniture"] : [], impactEstimates: all ? [estimate] : [], version: 3)
    }

    private static func donation(all: Bool) -> Donation {
        Donation(
            id: UUID(), organization: ref, amountMinor: 500, currency: .eur, visibility: "public", message: all ? "for nets" : nil,
            recurringId: all ? UUID() : nil, month: all ? "2026-11" : nil, donatedAt: at)
    }

    private static func recurring(all: Bool) -> RecurringDonation {
        RecurringDonation(
            id: UUID(), organizationId: UUID(), amountMinor: 500, currency: .eur, visibility: "anonymous", startMonth: "2026-11",
            status: "active", lastRunMonth: all ? "2026-12" : nil, lastOutcome: all ? "donated" : nil)
    }

    private static func impact(all: Bool) -> Impact {
        let achieved = Impact.Achieved(outcomes: 2.5, estimates: [estimate])
        return Impact(
            organization: ref, currency: .usd, donatedMinor: 1250, donations: 2, outcomeUnit: all ? "bed net" : nil,
            atDonation: all ? achieved : nil, today: all ? achieved : nil)
    }

    private static func wallet(all: Bool) -> Wallet {
        Wallet(
            balances: [.init(currency: .eur, amountMinor: 100)],
            entries: [.init(id: UUID(), kind: "donation", amountMinor: -100, currency: .eur, organizationId: all ? UUID() : nil, at: at)],
            version: 2)
    }

    private static func post(all: Bool) -> DonationPost {
        DonationPost(
            id: UUID(), donationId: UUID(), accountId: UUID(), organization: ref, caption: "Proud", imageId: all ? UUID() : nil, sharedAt: at)
    }

    @Test("every answer type, with every optional field and with none, has exactly the fields its schema names and requires")
    func typesMatchSchemas() throws {
        for fields in [SchemaFields.all, .required] {
            let all = fields == .all
            var found: [String] = []
            found += try schemaMismatches(Self.organization(all: all), DonationsAPI.organizationBody, fields: fields)
            found += try schemaMismatches(Self.estimate, DonationsAPI.estimateBody, fields: .all)
            found += try schemaMismatches(Self.donation(all: all), DonationsAPI.donationBody, fields: fields)
            found += try schemaMismatches(
                MadeDonation(donation: Self.donation(all: all), balanceMinor: 0), DonationsAPI.madeDonationBody, fields: fields)
            found += try schemaMismatches(
                Receipt(
                    receiptNumber: "CMN-2026-ABCDEF12", donationId: UUID(), donorAccountId: UUID(), organization: Self.ref, amountMinor: 500,
                    currency: .eur, donatedAt: Self.at, statement: "Received.", simulated: false), DonationsAPI.receiptBody, fields: .all)
            found += try schemaMismatches(
                YearlyTotals(
                    year: 2026, totals: [.init(currency: .eur, amountMinor: 500, donations: 1)],
                    byCategory: [.init(category: "health", currency: .eur, amountMinor: 500)]), DonationsAPI.yearlyTotalsBody, fields: .all)
            found += try schemaMismatches(Self.wallet(all: all), DonationsAPI.walletBody, fields: fields)
            found += try schemaMismatches(
                TopUp(id: UUID(), amountMinor: 500, currency: .eur, balanceMinor: 500, at: Self.at, simulated: true), DonationsAPI.topUpBody,
                fields: .all)
            found += try schemaMismatches(Self.recurring(all: all), DonationsAPI.recurringBody, fields: fields)
            found += try schemaMismatches(Self.post(all: all), DonationsAPI.postBody, fields: fields)
            found += try schemaMismatches(
                Supporter(accountId: UUID(), profile: "/v1/profiles/x", donations: 2, lastDonatedAt: Self.at), DonationsAPI.supporterBody,
                fields: .all)
            found += try schemaMismatches(Self.impact(all: all), DonationsAPI.impactBody, fields: fields)
            found += try schemaMismatches(
                Page(items: [Self.donation(all: all)], nextCursor: all ? "next" : nil), DonationsAPI.page(of: DonationsAPI.donationBody),
                fields: fields)
            #expect(found.isEmpty, "\(fields): \(found)")
        }
    }
}
