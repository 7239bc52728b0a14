import CommonsAPI
import Contracts
import DonationsDomain
import Foundation
import Hummingbird
import ServiceKit

extension DonationsAPI {
    func addWalletRoutes(to router: Router<AppRequestContext>) {
        router.get("/v1/wallet") { _, context in
            let identity = try context.requireIdentity()
            let wallet = try await commands.wallet(of: identity.accountId)
            return try Response.json(Wallet(wallet), version: wallet.version)
        }
        router.post("/v1/wallet/top-ups") { request, context in
            let identity = try context.requireIdentity()
            let key = try idempotencyKey(request)
            let body = try await request.decodeJSON(as: NewTopUp.self, context: context)
            let topUpId = context.idempotentEventId(key, salt: "top-up")
            let (event, position, balance) = try await commands.topUp(
                TopUpRequest(amountMinor: body.amountMinor, currency: body.currency.rawValue, cardNumber: body.cardNumber),
                account: identity.accountId, topUpId: topUpId, metadata: context.eventMetadata)
            return try Response.json(
                TopUp(
                    id: event.topUpId, amountMinor: event.amountMinor, currency: CurrencyCode(rawValue: event.currency), balanceMinor: balance,
                    at: event.at,
                    simulated: commands.payments?.isSimulated ?? false),
                status: .created, position: position, location: "/v1/wallet")
        }
    }
}
