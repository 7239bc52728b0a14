import EventLog
import Foundation

// What people think of products: reviews and favourites, written by `shopping-lists`.

/// A person reviewed a product, or edited their review (the latest one holds). `text` is
/// a sealed `String`, sealed with the author's key. Stream: `review-<reviewId>`, where
/// the review id is derived from the product and the author (one review per person).
public struct ProductReviewed: EventContract, Equatable {
    public static let eventType = "ProductReviewed"
    public var reviewId: UUID
    public var productId: UUID
    public var authorId: UUID
    /// 1 to 5 stars.
    public var rating: Int
    public var text: Sealed
    public var at: Date

    public init(reviewId: UUID, productId: UUID, authorId: UUID, rating: Int, text: Sealed, at: Date) {
        self.reviewId = reviewId
        self.productId = productId
        self.authorId = authorId
        self.rating = rating
        self.text = text
        self.at = at
    }
}

/// A person marked a product as a favourite (`favorite` true) or unmarked it. Stream:
/// `favorites-<accountId>`.
public struct ProductFavoriteSet: EventContract, Equatable {
    public static let eventType = "ProductFavoriteSet"
    public var accountId: UUID
    public var productId: UUID
    public var favorite: Bool

    public init(accountId: UUID, productId: UUID, favorite: Bool) {
        self.accountId = accountId
        self.productId = productId
        self.favorite = favorite
    }
}
