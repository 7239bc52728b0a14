import CommonsAPI
import Contracts
import DonationsDomain
import Foundation
import Hummingbird
import ServiceKit

struct RecurringChangeBody: Decodable { var amountMinor: Int }

extension DonationsAPI {
    func addRecurringRoutes(to router: Router<AppRequestContext>) {
        router.post("/v1/donations/recurring") { request, context in
            let identity = try context.requireIdentity()
            let key = try idempotencyKey(request)
            let body = try await request.decodeJSON(as: NewRecurringDonation.self, context: context)
            let (state, position) = try await commands.createRecurring(
                account: identity.accountId, organization: body.organization, amountMinor: body.amountMinor,
                currency: body.currency.rawValue,
                visibility: try body.visibility.map { try Problem.parse($0.rawValue, field: "visibility") } ?? .public,
                recurringId: context.idempotentEventId(key, salt: "recurring"), metadata: context.eventMetadata)
            let view = try Self.recurringView(state)
            return try Response.json(
                view, status: .created, version: state.version, position: position, location: "/v1/donations/recurring/\(view.id.lowercasedText)")
        }
        router.get("/v1/donations/recurring") { _, context in
            let identity = try context.requireIdentity()
            return try Response.json(["items": try await donations.recurring(of: identity.accountId)])
        }
        router.patch("/v1/donations/recurring/{id}") { request, context in
            let identity = try context.requireIdentity()
            let id = try context.parameters.uuid("id")
            let body = try await request.decodeJSON(as: RecurringChangeBody.self, context: context)
            let (state, position) = try await commands.changeRecurring(
                id, of: identity.accountId, amountMinor: body.amountMinor, metadata: context.eventMetadata)
            return try Response.json(try Self.recurringView(state), version: state.version, position: position)
        }
        router.delete("/v1/donations/recurring/{id}") { _, context in
            let identity = try context.requireIdentity()
            let id = try context.parameters.uuid("id")
            let (_, position) = try await commands.cancelRecurring(id, of: identity.accountId, metadata: context.eventMetadata)
            return Response.empty(position: position)
        }
    }

    static func recurringView(_ state: RecurringState) throws -> RecurringDonation {
        guard let created = state.created else { throw DonationsError.recurringNotFound }
        return RecurringDonation(
            id: created.recurringId, organizationId: created.organizationId, amountMinor: state.amountMinor,
            currency: CurrencyCode(rawValue: created.currency), visibility: created.visibility.rawValue, startMonth: created.startMonth,
            status: state.cancelled ? "cancelled" : "active",
            lastRunMonth: nil, lastOutcome: nil)
    }
}
