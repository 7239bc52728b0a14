import CommonsAPI
import Contracts
import DonationsDomain
import Foundation
import Hummingbird
import ServiceKit

extension DonationsAPI {
    func addDonationRoutes(to router: Router<AppRequestContext>) {
        router.post("/v1/donations") { request, context in
            let identity = try context.requireIdentity()
            let key = try idempotencyKey(request)
            let body = try await request.decodeJSON(as: NewDonation.self, context: context)
            let checked = try DonationRequest(
                organization: body.organization, amountMinor: body.amountMinor, currency: body.currency.rawValue,
                message: body.message, visibility: try body.visibility.map { try Problem.parse($0.rawValue, field: "visibility") } ?? .public
            ).validated()
            let outcome = try await commands.donate(
                account: identity.accountId, organization: checked.organization, amountMinor: checked.amountMinor,
                currency: checked.currency, visibility: checked.visibility, message: checked.message,
                donationId: context.idempotentEventId(key, salt: "donation"), metadata: context.eventMetadata)
            let organization = try await commands.organization(outcome.donation.organizationId)
            let ref = OrganizationRef(id: outcome.donation.organizationId, slug: organization.draft?.slug ?? "", name: organization.draft?.name ?? "")
            let view = Donation(
                id: outcome.donation.donationId, organization: ref, amountMinor: outcome.donation.amountMinor,
                currency: CurrencyCode(rawValue: outcome.donation.currency), visibility: outcome.donation.visibility.rawValue,
                message: checked.message,
                recurringId: nil, month: nil, donatedAt: outcome.donation.at)
            return try Response.json(
                MadeDonation(donation: view, balanceMinor: outcome.balanceMinor), status: .created,
                position: outcome.position, location: "/v1/donations/\(view.id.lowercasedText)")
        }
        router.get("/v1/donations") { request, context in
            let identity = try context.requireIdentity()
            var query = QueryReader(request)
            let limit = query.limit()
            let list = "donations|\(identity.accountId.lowercasedText)"
            let cursor = query.cursor(list: list)
            try query.check()
            let key = HistoryPageKey(account: identity.accountId, limit: limit, cursor: request.query("cursor"))
            let (pages, fresh) = (historyPages, request.refusesKeptAnswers)
            if !fresh, let page = try DonationQueries.historyVersion.kept(in: runtime.readModel, { pages.answer(for: key, version: $0) }) {
                return Response.json(encoded: page)
            }
            switch try await donations.history(
                of: identity.accountId, limit: limit, after: cursor, list: list,
                kept: { fresh ? nil : pages.answer(for: key, version: $0) })
            {
            case .kept(let page):
                return Response.json(encoded: page)
            case let .read(records, next, version):
                var items: [Donation] = []
                for record in records { items.append(try await view(record)) }
                let page = try ResponseJSON.encode(Page(items: items, nextCursor: next))
                if let version { pages.store(page, for: key, version: version) }
                return Response.json(encoded: page)
            }
        }
        router.get("/v1/donations/totals") { request, context in
            let identity = try context.requireIdentity()
            var query = QueryReader(request)
            let year = query.integer("year", in: 1970...9999) ?? Month(containing: commands.clock.now()).year
            try query.check()
            return try Response.json(try await totals(of: identity.accountId, year: year))
        }
        router.get("/v1/donations/{id}") { _, context in
            let identity = try context.requireIdentity()
            guard let record = try await donations.donation(try context.parameters.uuid("id"), of: identity.accountId) else {
                throw DonationsError.donationNotFound
            }
            return try Response.json(try await view(record))
        }
        router.get("/v1/donations/{id}/receipt") { _, context in
            let identity = try context.requireIdentity()
            guard let record = try await donations.donation(try context.parameters.uuid("id"), of: identity.accountId) else {
                throw DonationsError.donationNotFound
            }
            return try Response.json(
                Receipt(
                    receiptNumber: "CMN-\(Month(containing: record.donatedAt).year)-\(record.id.lowercasedText.prefix(8).uppercased())",
                    donationId: record.id,
                    donorAccountId: record.accountId, organization: record.organization, amountMinor: record.amountMinor,
                    currency: CurrencyCode(rawValue: record.currency), donatedAt: record.donatedAt,
                    statement: simulated ? Self.simulatedStatement : Self.statement, simulated: simulated))
        }
    }

    static let statement =
        "Commons received this donation and passes it on in full to the organisation named; no goods or services were given in return."
    static let simulatedStatement = """
        SIMULATED: this deployment runs the simulated card processor, so no money was received and nothing is passed on. \
        This receipt is not evidence of a donation.
        """

    /// Whether the deployment's card processor is the simulated one.
    var simulated: Bool { commands.payments?.isSimulated ?? false }

    func view(_ record: DonationRecord) async throws -> Donation {
        Donation(
            id: record.id, organization: record.organization, amountMinor: record.amountMinor,
            currency: CurrencyCode(rawValue: record.currency), visibility: record.visibility.rawValue, message: try await open(record.sealedMessage),
            recurringId: record.recurringId,
            month: record.month, donatedAt: record.donatedAt)
    }

    private func totals(of account: UUID, year: Int) async throws -> YearlyTotals {
        let records = try await donations.all(of: account).filter { Month(containing: $0.donatedAt).year == year }
        let categories = try await donations.categories(of: Set(records.map(\.organization.id)))
        var totals: [String: YearlyTotals.Total] = [:]
        var byCategory: [String: [String: Int]] = [:]
        for record in records {
            totals[record.currency, default: .init(currency: CurrencyCode(rawValue: record.currency), amountMinor: 0, donations: 0)].amountMinor +=
                record.amountMinor
            totals[record.currency]?.donations += 1
            for category in categories[record.organization.id] ?? [] {
                byCategory[category, default: [:]][record.currency, default: 0] += record.amountMinor
            }
        }
        return YearlyTotals(
            year: year, totals: totals.values.sorted { $0.currency.rawValue < $1.currency.rawValue },
            byCategory: byCategory.flatMap { category, amounts in
                amounts.map { YearlyTotals.CategoryTotal(category: category, currency: CurrencyCode(rawValue: $0.key), amountMinor: $0.value) }
            }.sorted { ($0.category, $0.currency.rawValue) < ($1.category, $1.currency.rawValue) })
    }
}
