import Contracts
import DonationsDomain
import ServiceKit

// The JSON bodies the donations service answers with: CommonsAPI's types, the SDK's too.
// A field the encoder omits when nil is named but not required; `DonationSchemaTests`
// holds each schema to its type.
extension DonationsAPI {
    static let uuid = Schema.string(format: "uuid")
    static let dateTime = Schema.string(format: "date-time")
    /// `YYYY-MM`.
    static let month = Schema.string(minLength: 7, maxLength: 7)
    static let visibilityValue = Schema.oneOf(DonationVisibility.allCases.map(\.rawValue))

    /// ``OrganizationRef``.
    static let organizationRefBody = Schema.object(["id": uuid, "slug": .string(), "name": .string()], required: ["id", "slug", "name"])

    /// ``ImpactEstimate``.
    static let estimateBody = Schema.object(
        [
            "id": uuid, "outcomeUnit": .string(), "costPerOutcomeMinor": .integer, "currency": .currencyCode, "source": .string(),
            "sourceURL": .string(), "publishedOn": .string(), "addedAt": dateTime,
        ],
        required: ["id", "outcomeUnit", "costPerOutcomeMinor", "currency", "source", "publishedOn", "addedAt"]
    ).named("ImpactEstimate")

    /// ``Organization``.
    static let organizationBody = Schema.object(
        [
            "id": uuid, "slug": .string(), "name": .string(), "kind": .oneOf(OrganizationKind.allCases.map(\.rawValue)), "mission": .string(),
            "description": .string(), "homepage": .string(), "logoImageId": uuid, "categories": .array(.string()), "tags": .array(.string()),
            "rating": .object(
                ["value": .number, "scale": .number, "source": .string(), "date": .string()], required: ["value", "scale", "source", "date"]),
            "verified": .boolean, "currency": .currencyCode, "minimumDonationMinor": .integer, "suggestedAmountsMinor": .array(.integer),
            "address": .string(), "location": .object(["lat": .latitude, "lon": .longitude], required: ["lat", "lon"]), "directionsURL": .string(),
            "openingHours": .array(
                .object(
                    ["day": .oneOf(OrganizationDraft.days), "opens": .string(), "closes": .string()],
                    required: ["day", "opens", "closes"])),
            "acceptedCategories": .array(.string()), "impactEstimates": .array(estimateBody), "version": .integer,
        ],
        required: [
            "id", "slug", "name", "kind", "mission", "description", "categories", "tags", "verified", "currency", "minimumDonationMinor",
            "suggestedAmountsMinor", "openingHours", "acceptedCategories", "impactEstimates", "version",
        ]
    ).named("Organization")

    /// ``Donation``.
    static let donationBody = Schema.object(
        [
            "id": uuid, "organization": organizationRefBody, "amountMinor": .integer, "currency": .currencyCode, "visibility": visibilityValue,
            "message": .string(), "recurringId": uuid, "month": month, "donatedAt": dateTime,
        ],
        required: ["id", "organization", "amountMinor", "currency", "visibility", "donatedAt"]
    ).named("Donation")

    /// ``MadeDonation``.
    static let madeDonationBody = Schema.object(["donation": donationBody, "balanceMinor": .integer], required: ["donation", "balanceMinor"])

    /// ``Receipt``.
    static let receiptBody = Schema.object(
        [
            "receiptNumber": .string(), "donationId": uuid, "donorAccountId": uuid, "organization": organizationRefBody, "amountMinor": .integer,
            "currency": .currencyCode, "donatedAt": dateTime, "statement": .string(), "simulated": .boolean,
        ],
        required: ["receiptNumber", "donationId", "donorAccountId", "organization", "amountMinor", "currency", "donatedAt", "statement", "simulated"]
    ).named("Receipt")

    /// ``YearlyTotals``.
    static let yearlyTotalsBody = Schema.object(
        [
            "year": .integer,
            "totals": .array(
                .object(
                    ["currency": .currencyCode, "amountMinor": .integer, "donations": .integer],
                    required: ["currency", "amountMinor", "donations"])),
            "byCategory": .array(
                .object(
                    ["category": .string(), "currency": .currencyCode, "amountMinor": .integer],
                    required: ["category", "currency", "amountMinor"])),
        ],
        required: ["year", "totals", "byCategory"])

    /// ``Wallet``: balances, and the most recent movements (negative for money out).
    static let walletBody = Schema.object(
        [
            "balances": .array(.object(["currency": .currencyCode, "amountMinor": .integer], required: ["currency", "amountMinor"])),
            "entries": .array(
                .object(
                    [
                        "id": uuid, "kind": .oneOf([WalletState.Entry.Kind.topUp, .donation].map(\.rawValue)), "amountMinor": .integer,
                        "currency": .currencyCode, "organizationId": uuid, "at": dateTime,
                    ],
                    required: ["id", "kind", "amountMinor", "currency", "at"])),
            "version": .integer,
        ],
        required: ["balances", "entries", "version"]
    ).named("Wallet")

    /// ``TopUp``.
    static let topUpBody = Schema.object(
        ["id": uuid, "amountMinor": .integer, "currency": .currencyCode, "balanceMinor": .integer, "at": dateTime, "simulated": .boolean],
        required: ["id", "amountMinor", "currency", "balanceMinor", "at", "simulated"])

    /// ``RecurringDonation``; `lastRunMonth` and `lastOutcome` once the scheduler has run it.
    static let recurringBody = Schema.object(
        [
            "id": uuid, "organizationId": uuid, "amountMinor": .integer, "currency": .currencyCode, "visibility": visibilityValue,
            "startMonth": month, "status": .oneOf(["active", "cancelled"]), "lastRunMonth": month,
            "lastOutcome": .oneOf([RecurringDonationRun.Outcome.donated, .insufficientFunds, .refused].map(\.rawValue)),
        ],
        required: ["id", "organizationId", "amountMinor", "currency", "visibility", "startMonth", "status"]
    ).named("RecurringDonation")

    /// ``DonationPost``.
    static let postBody = Schema.object(
        [
            "id": uuid, "donationId": uuid, "accountId": uuid, "organization": organizationRefBody, "caption": .string(), "imageId": uuid,
            "sharedAt": dateTime,
        ],
        required: ["id", "donationId", "accountId", "organization", "caption", "sharedAt"]
    ).named("DonationPost")

    /// ``Supporter``.
    static let supporterBody = Schema.object(
        ["accountId": uuid, "profile": .string(), "donations": .integer, "lastDonatedAt": dateTime],
        required: ["accountId", "profile", "donations", "lastDonatedAt"])

    /// ``Impact``: outcomes at the estimates of each donation and at today's, when there are any.
    static let impactBody: Schema = {
        let achieved = Schema.object(["outcomes": .number, "estimates": .array(estimateBody)], required: ["outcomes", "estimates"])
        return .object(
            [
                "organization": organizationRefBody, "currency": .currencyCode, "donatedMinor": .integer, "donations": .integer,
                "outcomeUnit": .string(), "atDonation": achieved, "today": achieved,
            ],
            required: ["organization", "currency", "donatedMinor", "donations"])
    }()

    /// ``Page``: `nextCursor` only when there is a next page.
    static func page(of items: Schema) -> Schema {
        .object(["items": .array(items), "nextCursor": .cursor], required: ["items"])
    }

    /// `{ items }`: the whole list in one answer.
    static func whole(_ items: Schema) -> Schema {
        .object(["items": .array(items)], required: ["items"])
    }
}
