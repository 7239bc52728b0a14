import Contracts
import DonationsDomain
import EventLog
import Foundation
import ServiceKit

extension DonationsCommands {
    /// Shares one of `account`'s public donations in the feed. `postId` comes from the
    /// Idempotency-Key, so a retry returns the post shared first.
    func share(
        donation donationId: UUID, account: UUID, caption: String, imageId: UUID?, postId: UUID,
        metadata: EventMetadata
    ) async throws -> (DonationShared, Checkpoint) {
        var problems = FieldProblems()
        let caption = problems.text(caption, field: "caption", length: 1...280)
        try problems.check()
        guard let donation = try await wallet(of: account).donation(donationId) else { throw DonationsError.donationNotFound }
        guard donation.visibility == .public else { throw DonationsError.anonymousDonation }
        let shared = DonationShared(
            postId: postId, donationId: donationId, accountId: account, organizationId: donation.organizationId,
            caption: try await sealer.seal(caption, for: account), imageId: imageId, at: clock.now())
        if let result = try await handler.tryClaim(
            Streams.post(postId), at: 0, with: [try EventCatalog.encode(shared, id: postId, metadata: metadata)])
        {
            return (shared, result.checkpoint)
        }
        // The same Idempotency-Key again, from another replica: the post shared first stands.
        guard let recorded = try await store.event(id: postId), let first = try CommonsEvents.catalog.decode(recorded) as? DonationShared,
            first.accountId == account
        else { throw DonationsError.donationNotFound }
        return (first, recorded.checkpoint)
    }
}
