import Contracts
import DonationsDomain
import Foundation
import Hummingbird
import ServiceKit

struct TopUpBody: Decodable {
    var amountMinor: Int
    var currency: String
    var cardNumber: String
}

/// What a top-up answers: the movement and the balance after it (never the card number).
struct TopUpView: Codable, Sendable {
    var id: UUID
    var amountMinor: Int
    var currency: String
    var balanceMinor: Int
    var at: Date
    /// True when the deployment's card processor is the simulated one: no money moved.
    var simulated: Bool
}

extension DonationsAPI {
    func addWalletRoutes(to router: Router<AppRequestContext>) {
        router.get("/v1/wallet") { _, context in
            let identity = try context.requireIdentity()
            let wallet = try await commands.wallet(of: identity.accountId)
            return try Response.json(WalletView(wallet), version: wallet.version)
        }
        router.post("/v1/wallet/top-ups") { request, context in
            let identity = try context.requireIdentity()
            let key = try idempotencyKey(request)
            let body = try await request.decodeJSON(as: TopUpBody.self, context: context)
            let topUpId = context.idempotentEventId(key, salt: "top-up")
            let (event, position, balance) = try await commands.topUp(
                TopUpRequest(amountMinor: body.amountMinor, currency: body.currency, cardNumber: body.cardNumber),
                account: identity.accountId, topUpId: topUpId, metadata: context.eventMetadata)
            return try Response.json(
                TopUpView(
                    id: event.topUpId, amountMinor: event.amountMinor, currency: event.currency, balanceMinor: balance, at: event.at,
                    simulated: commands.payments?.isSimulated ?? false),
                status: .created, position: position, location: "/v1/wallet")
        }
    }
}
