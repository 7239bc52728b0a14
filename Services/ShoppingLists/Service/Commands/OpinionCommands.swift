import Codecs
import Contracts
import EventLog
import Foundation
import ServiceKit
import ShoppingListsDomain

/// Reviews and favourites: each person's own streams, so they never contend with others.
package struct OpinionCommands: Sendable {
    let store: any EventStore
    let sealer: TextSealer
    let clock: WallClock

    /// Writes or replaces `author`'s review of `product`. Throws `.invalid` for bad fields.
    func review(
        _ product: UUID, by author: UUID, rating: Int, text: String, metadata: EventMetadata
    ) async throws
        -> (ProductReviewed, Checkpoint)
    {
        let now = clock.now()
        let problems = ReviewRules.problems(rating: rating, text: text)
        guard problems.isEmpty else { throw ShoppingListError.invalid(problems) }
        let reviewId = ShoppingStreams.reviewId(product: product, author: author)
        let review = ProductReviewed(
            reviewId: reviewId, productId: product, authorId: author, rating: rating,
            text: try await sealer.seal(text.trimmingWhitespaceAndNewlines(), for: author), at: now)
        // One writer per review (its author), and the latest review holds: no version to check.
        let result = try await CommandHandler(store: store).record(
            [try EventCatalog.encode(review, metadata: metadata)],
            to: ShoppingStreams.review(reviewId))
        return (review, result.checkpoint)
    }

    /// Marks or unmarks `product` as a favourite of `account`.
    func setFavorite(_ product: UUID, of account: UUID, _ favorite: Bool, metadata: EventMetadata) async throws -> Checkpoint {
        try await CommandHandler(store: store).record(
            [
                try EventCatalog.encode(ProductFavoriteSet(accountId: account, productId: product, favorite: favorite), metadata: metadata)
            ], to: ShoppingStreams.favorites(account)
        ).checkpoint
    }
}
