import Contracts
import DonationsDomain
import ServiceKit

extension DonationsAPI {
    typealias Schema = OpenAPIDocument.Schema
    typealias Parameter = OpenAPIDocument.Parameter

    /// An amount one request may move (``Amounts``).
    static let amount = Schema.integer(1...Amounts.largestMinor)
    /// `YYYY-MM-DD`, `YYYY-MM` or `YYYY` (``OrganizationDraft/isPublicationDate(_:)``).
    static let publicationDate = Schema.string(minLength: 4, maxLength: 10)
    /// A category or tag of an organisation: 1–40 characters, at most 20 of them.
    static let labels = Schema.array(.string(minLength: 1, maxLength: 40), maxItems: 20)
    /// An organisation by id or slug (``DonationsCommands/organizationId(_:)``).
    static let organizationReference = Schema.string(minLength: 1, maxLength: 80)
    static let visibility = Schema.oneOf(DonationVisibility.allCases.map(\.rawValue))
    /// A URL a request carries (``FieldProblems/url(_:field:)``).
    static let url = Schema.string(format: "uri", maxLength: FieldProblems.maximumURLLength)
    /// A `category` or `tag` filter (``QueryReader/filter(_:)``).
    static let filter = Schema.string(maxLength: QueryReader.maximumFilterLength)
    /// A rating's value or scale: the value at most the scale (``OrganizationDraft/validated()``).
    static let rating = Schema.number(0...OrganizationDraft.maximumRatingScale)
    /// The bounds of ``OrganizationDraft/validated()``.
    private static let organizationFields: [String: Schema] = [
        "name": .string(minLength: 1, maxLength: 120), "slug": .string(minLength: 2, maxLength: 80),
        "kind": .oneOf(OrganizationKind.allCases.map(\.rawValue)), "mission": .string(minLength: 1, maxLength: 500),
        "description": .string(maxLength: 5_000), "homepage": url, "logoImageId": .string(format: "uuid"),
        "categories": labels, "tags": labels,
        "rating": .object(["value": rating, "scale": rating, "source": .string(minLength: 1, maxLength: 120), "date": publicationDate]),
        "currency": .currencyCode, "minimumDonationMinor": amount, "suggestedAmountsMinor": .array(amount, maxItems: 10),
        "address": .string(minLength: 1, maxLength: 300), "location": .object(["lat": .latitude, "lon": .longitude]),
        "openingHours": .array(
            .object([
                "day": .oneOf(OrganizationDraft.days), "opens": .string(minLength: 5, maxLength: 5),
                "closes": .string(minLength: 5, maxLength: 5),
            ]),
            maxItems: OrganizationDraft.maximumOpeningHours),
        "acceptedCategories": .array(.string(minLength: 1, maxLength: 60), maxItems: OrganizationDraft.maximumAcceptedCategories),
    ]
    /// A page of a list read with ``QueryReader``.
    static let paging: [Parameter] = [.limit(), .cursor]

    /// Every route of the donations service (a test keeps this equal to the router's).
    static let document = OpenAPIDocument(
        title: "Commons donations",
        operations: [
            .init(
                "GET", "/v1/organizations",
                "Browse and search organisations (category, tag, kind=charity|centre|both, verified, "
                    + "q: at most 200 characters, its first 10 words of letters and digits as prefixes; limit, cursor), by name.",
                query: [
                    Parameter("category", filter), Parameter("tag", filter), Parameter("kind", .oneOf(OrganizationKind.allCases.map(\.rawValue))),
                    Parameter("verified", .boolean), Parameter("q", .searchText),
                ] + paging,
                responses: [200: "{ items, nextCursor }", 400: "Invalid query fields"], returns: [200: page(of: organizationBody)]),
            .init(
                "GET", "/v1/organizations/{id}", "One organisation by id or slug, with every impact estimate (newest first).",
                responses: [200: "OK (ETag: its version)", 404: "No such organisation"], returns: [200: organizationBody]),
            .init(
                "POST", "/v1/organizations", "Register an organisation (admin).", authenticated: true,
                body: .object(organizationFields, required: ["name", "slug", "kind", "mission", "currency", "minimumDonationMinor"]),
                responses: [201: "Registered", 403: "Not an admin", 409: "Slug taken", 422: "Invalid fields"], returns: [201: organizationBody]),
            .init(
                "PATCH", "/v1/organizations/{id}", "Change an organisation (admin); If-Match required; the slug never changes.", authenticated: true,
                body: .object(organizationFields),
                responses: [
                    200: "Changed", 403: "Not an admin", 404: "No such organisation", 412: "Stale If-Match", 422: "Invalid fields or a new slug",
                    428: "If-Match missing",
                ],
                returns: [200: organizationBody]
            ).readingIfMatch(required: true),
            .init(
                "PUT", "/v1/organizations/{id}/verification", "Verify an organisation or withdraw it (admin).", authenticated: true,
                body: .object(["verified": .boolean], required: ["verified"]),
                responses: [200: "Set", 403: "Not an admin", 404: "No such organisation", 409: "Changed by someone else meanwhile; try again"],
                returns: [200: organizationBody]),
            .init(
                "POST", "/v1/organizations/{id}/impact-estimates", "Add an impact estimate (admin); earlier ones stay. Idempotency-Key required.",
                authenticated: true,
                body: .object(
                    [
                        "outcomeUnit": .string(minLength: 1, maxLength: 120), "costPerOutcomeMinor": amount, "currency": .currencyCode,
                        "source": .string(minLength: 1, maxLength: 200), "sourceURL": url, "publishedOn": publicationDate,
                    ],
                    required: ["outcomeUnit", "costPerOutcomeMinor", "currency", "source", "publishedOn"]),
                responses: [
                    201: "Added", 403: "Not an admin", 404: "No such organisation",
                    409: "The Idempotency-Key is still in use, or a concurrent change; try again", 422: "Invalid fields",
                ],
                returns: [201: estimateBody]
            ).requiringIdempotencyKey(),
            .init(
                "GET", "/v1/organizations/{id}/supporters", "People who donated publicly, most recent first (limit, cursor).",
                query: paging, responses: [200: "{ items, nextCursor }", 404: "No such organisation"], returns: [200: page(of: supporterBody)]),
            .init("GET", "/v1/wallet", "My balances and most recent movements.", authenticated: true, returns: [200: walletBody]),
            .init(
                "POST", "/v1/wallet/top-ups", "Add money from a card (Idempotency-Key required).", authenticated: true,
                body: .object(
                    [
                        "amountMinor": .integer(100...TopUpRequest.largestMinor), "currency": .currencyCode,
                        "cardNumber": .string(minLength: 12, maxLength: CardNumber.maximumLength),
                    ],
                    required: ["amountMinor", "currency", "cardNumber"]),
                responses: [
                    201: "Added", 402: "Card declined", 409: "The Idempotency-Key is still in use, or a concurrent change; try again",
                    422: "Invalid fields", 503: "Unavailable, past its deadline, or no card processor configured (Retry-After)",
                ],
                returns: [201: topUpBody]
            ).requiringIdempotencyKey(),
            .init(
                "POST", "/v1/donations", "Donate from my wallet (Idempotency-Key required; a retry never charges twice).", authenticated: true,
                body: .object(
                    [
                        "organization": organizationReference, "amountMinor": amount, "currency": .currencyCode,
                        "message": .string(maxLength: 500), "visibility": visibility,
                    ],
                    required: ["organization", "amountMinor", "currency"]),
                responses: [
                    201: "Donated", 409: "Insufficient funds (with the balance), the Idempotency-Key still in use, or a concurrent change",
                    422: "Below the minimum, wrong currency, unverified",
                ],
                returns: [201: madeDonationBody]
            ).requiringIdempotencyKey(),
            .init(
                "GET", "/v1/donations",
                "My donations, newest first (limit, cursor). "
                    + "Pages are kept while my donations and their organisations are unchanged; Cache-Control: no-cache reads afresh.",
                authenticated: true, query: paging,
                returns: [200: page(of: donationBody)]),
            .init(
                "GET", "/v1/donations/totals", "My donations of a year (year, default this one), in all and by category.", authenticated: true,
                query: [Parameter("year", .integer(1970...9999))], returns: [200: yearlyTotalsBody]),
            .init(
                "GET", "/v1/donations/{id}", "One of my donations.", authenticated: true, responses: [200: "OK", 404: "Not mine"],
                returns: [200: donationBody]),
            .init(
                "GET", "/v1/donations/{id}/receipt", "A receipt for one of my donations.", authenticated: true,
                responses: [200: "OK", 404: "Not mine"],
                returns: [200: receiptBody]),
            .init(
                "POST", "/v1/donations/{id}/posts", "Share one of my public donations in the feed (Idempotency-Key required).", authenticated: true,
                body: .object(["caption": .string(minLength: 1, maxLength: 280), "imageId": .string(format: "uuid")], required: ["caption"]),
                responses: [
                    201: "Shared", 404: "Not mine", 409: "The Idempotency-Key is still in use", 422: "Anonymous donation or invalid caption",
                ],
                returns: [201: postBody]
            ).requiringIdempotencyKey(),
            .init(
                "POST", "/v1/donations/recurring", "Set up a monthly donation (Idempotency-Key required); the first is made this month.",
                authenticated: true,
                body: .object(
                    ["organization": organizationReference, "amountMinor": amount, "currency": .currencyCode, "visibility": visibility],
                    required: ["organization", "amountMinor", "currency"]),
                responses: [201: "Set up", 409: "The Idempotency-Key is still in use", 422: "Invalid, below the minimum or unverified"],
                returns: [201: recurringBody]
            ).requiringIdempotencyKey(),
            .init("GET", "/v1/donations/recurring", "My monthly donations.", authenticated: true, returns: [200: whole(recurringBody)]),
            .init(
                "PATCH", "/v1/donations/recurring/{id}", "Change a monthly donation's amount from the next month on.", authenticated: true,
                body: .object(["amountMinor": amount], required: ["amountMinor"]),
                responses: [
                    200: "Changed", 404: "Not mine", 409: "Cancelled, or a concurrent change", 422: "Invalid, below the minimum or unverified",
                ],
                returns: [200: recurringBody]),
            .init(
                "DELETE", "/v1/donations/recurring/{id}", "Cancel a monthly donation.", authenticated: true,
                responses: [204: "Cancelled", 404: "Not mine", 409: "Changed meanwhile; try again"]),
            .init(
                "GET", "/v1/donation-posts", "The public feed of shared donations, newest first (limit, cursor).",
                query: paging, responses: [200: "{ items, nextCursor }"], returns: [200: page(of: postBody)]),
            .init(
                "GET", "/v1/impact", "What my donations achieved per organisation, at the estimates when I donated and at today's.",
                authenticated: true, returns: [200: whole(impactBody)]),
        ])
}
