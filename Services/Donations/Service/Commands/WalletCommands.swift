import Contracts
import DonationsDomain
import EventLog
import Foundation

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
    package func topUp(_ request: TopUpRequest, account: UUID, topUpId: UUID, metadata: EventMetadata) async throws -> (WalletToppedUp, Checkpoint, balance: Int) {
        let card = try request.validated()
        guard let payments else { throw DonationsError.paymentsNotConfigured }
        return try await wallets.withWallet(account) { state -> (WalletToppedUp, Checkpoint, balance: Int) in
            if state.hasTopUp(topUpId) { return try await existingTopUp(topUpId, account: account) }
            switch try await payments.charge(card, amountMinor: request.amountMinor, currency: request.currency, idempotencyKey: topUpId) {
            case .declined(let reason):
                throw DonationsError.cardDeclined(reason: reason)
            case .approved(let reference):
                let charge = CardCharge(brand: card.brand, last4: card.last4, reference: reference)
                let event = WalletToppedUp(accountId: account, topUpId: topUpId, amountMinor: request.amountMinor, currency: request.currency,
                                           charge: try await sealer.seal(charge, for: account), at: clock.now())
                var state = state
                for _ in 0..<attempts {
                    do {
                        let result = try await store.append(to: Streams.wallet(account), expected: .exact(state.version),
                                                            events: [try EventCatalog.encode(event, id: topUpId, metadata: metadata)])
                        state.evolve(event)
                        wallets.remember(state, of: account)
                        return (event, result.checkpoint, state.balance(in: event.currency))
                    } catch EventStoreError.wrongExpectedVersion, EventStoreError.idempotencyConflict {
                        // Another process appended to this wallet: money in needs no new decision, only the new version.
                        state = try await wallets.current(account)
                        if state.hasTopUp(topUpId) { return try await existingTopUp(topUpId, account: account) }
                    }
                }
                throw EventStoreError.wrongExpectedVersion(stream: Streams.wallet(account), expected: .exact(state.version), actual: -1)
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
        guard let organizationId = try await organizationId(idOrSlug) else { throw DonationsError.invalid(["organization": ["names no organisation"]]) }
        let organization = try await organization(organizationId)
        guard organization.exists else { throw DonationsError.invalid(["organization": ["names no organisation"]]) }
        let sealedMessage = try await message.asyncMap { try await sealer.seal($0, for: account) }
        return try await wallets.withWallet(account) { state -> DonationOutcome in
            var state = state
            for _ in 0..<attempts {
                if let made = state.donation(donationId) { return try await existing(made, state: state) }
                let now = clock.now()
                let donation = try DonationRequest.decide(
                    donationId: donationId, accountId: account, amountMinor: amountMinor, currency: currency, visibility: visibility,
                    message: sealedMessage, organization: organization, wallet: state, recurring: recurring, now: now)
                do {
                    let result = try await store.append(to: Streams.wallet(account), expected: .exact(state.version),
                                                        events: [try EventCatalog.encode(donation, id: donationId, metadata: metadata)])
                    state.evolve(donation)
                    wallets.remember(state, of: account)
                    return DonationOutcome(donation: donation, position: result.checkpoint, balanceMinor: state.balance(in: currency), madeBefore: false)
                } catch EventStoreError.wrongExpectedVersion, EventStoreError.idempotencyConflict {
                    // Another process moved this wallet: read what it did, then decide again.
                    state = try await wallets.current(account)
                }
            }
            throw EventStoreError.wrongExpectedVersion(stream: Streams.wallet(account), expected: .exact(state.version), actual: -1)
        }
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
