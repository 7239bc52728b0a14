import Contracts
import DonationsDomain
import EventLog
import Foundation
import ServiceKit

/// A donation and whether it was made by this call or found made by an earlier one.
package struct DonationOutcome: Sendable {
    var donation: DonationMade
    var position: Checkpoint
    var balanceMinor: Int
    var madeBefore: Bool
}

extension DonationsCommands {
    /// The wallet of `account` as the log has it now.
    func wallet(of account: UUID) async throws -> WalletState {
        try await wallets.current(account)
    }

    /// Charges the card and adds the money to the wallet. `topUpId` comes from the request's
    /// Idempotency-Key: a top-up found made already is returned as it was, not charged again.
    package func topUp(
        _ request: TopUpRequest, account: UUID, topUpId: UUID, metadata: EventMetadata
    ) async throws -> (WalletToppedUp, Checkpoint, balance: Int) {
        let card = try request.validated()
        guard let payments else { throw DonationsError.paymentsNotConfigured }
        return try await wallets.withWallet(account) { state -> (WalletToppedUp, Checkpoint, balance: Int) in
            if state.hasTopUp(topUpId) { return try await existingTopUp(topUpId, account: account) }
            switch try await payments.charge(card, amountMinor: request.amountMinor, currency: request.currency, idempotencyKey: topUpId) {
            case .declined(let reason):
                throw DonationsError.cardDeclined(reason: reason)
            case .approved(let reference):
                let charge = CardCharge(brand: card.brand, last4: card.last4, reference: reference)
                let event = WalletToppedUp(
                    accountId: account, topUpId: topUpId, amountMinor: request.amountMinor, currency: request.currency,
                    charge: try await sealer.seal(charge, for: account), at: clock.now())
                // Another process appended to this wallet meanwhile: money in needs no new decision, only the new version.
                return try await changeWallet(of: account, starting: state) { state in
                    if state.hasTopUp(topUpId) { return .answer(try await existingTopUp(topUpId, account: account)) }
                    return .append([try EventCatalog.encode(event, id: topUpId, metadata: metadata)]) { result in
                        var state = state
                        state.evolve(event)
                        wallets.remember(state, of: account)
                        return (event, result.checkpoint, state.balance(in: event.currency))
                    }
                }
            }
        }
    }

    private func existingTopUp(_ id: UUID, account: UUID) async throws -> (WalletToppedUp, Checkpoint, balance: Int) {
        guard let recorded = try await store.event(id: id), let event = try CommonsEvents.catalog.decode(recorded) as? WalletToppedUp,
            event.accountId == account
        else { throw DonationsError.donationNotFound }
        return (event, recorded.checkpoint, try await wallets.current(account).balance(in: event.currency))
    }

    /// Makes a donation from `account`'s wallet. `donationId` comes from the Idempotency-Key
    /// (or a monthly donation's month): a donation found in the wallet already is returned as
    /// it was, so a retry, even one racing the first, never charges twice.
    package func donate(
        account: UUID, organization idOrSlug: String, amountMinor: Int, currency: String, visibility: DonationVisibility, message: String?,
        donationId: UUID, recurring: (id: UUID, month: Month)? = nil, metadata: EventMetadata
    ) async throws -> DonationOutcome {
        guard let organizationId = try await organizationId(idOrSlug) else {
            throw DonationsError.invalid(["organization": ["names no organisation"]])
        }
        let organization = try await organization(organizationId)
        guard organization.exists else { throw DonationsError.invalid(["organization": ["names no organisation"]]) }
        let sealedMessage = try await message.asyncMap { try await sealer.seal($0, for: account) }
        return try await wallets.withWallet(account) { state -> DonationOutcome in
            try await changeWallet(of: account, starting: state) { state in
                if let made = state.donation(donationId) { return .answer(try await existing(made, state: state)) }
                let donation = try DonationRequest.decide(
                    donationId: donationId, accountId: account, amountMinor: amountMinor, currency: currency, visibility: visibility,
                    message: sealedMessage, organization: organization, wallet: state, recurring: recurring, now: clock.now())
                return .append([try EventCatalog.encode(donation, id: donationId, metadata: metadata)]) { result in
                    var state = state
                    state.evolve(donation)
                    wallets.remember(state, of: account)
                    return DonationOutcome(
                        donation: donation, position: result.checkpoint, balanceMinor: state.balance(in: currency), madeBefore: false)
                }
            }
        }
    }

    /// Decides on `account`'s wallet, starting from the `state` known; when another process
    /// moved the wallet (or delivered the same request), reads what it did and decides again.
    private func changeWallet<Answer>(
        of account: UUID, starting state: WalletState,
        _ decide: (WalletState) async throws -> CommandHandler.Decision<Answer>
    ) async throws -> Answer {
        try await handler.handle(
            Streams.wallet(account), retryingTakenIds: true, starting: (state, state.version),
            load: {
                let state = try await wallets.current(account)
                return (state, state.version)
            }
        ) { state, _ in try await decide(state) }
    }

    private func existing(_ donation: DonationMade, state: WalletState) async throws -> DonationOutcome {
        let recorded = try await store.event(id: donation.donationId)
        let position = if let recorded { recorded.checkpoint } else { try await store.head() }
        return DonationOutcome(donation: donation, position: position, balanceMinor: state.balance(in: donation.currency), madeBefore: true)
    }
}

extension Optional {
    /// `map` for an asynchronous, throwing transform.
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async throws -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
