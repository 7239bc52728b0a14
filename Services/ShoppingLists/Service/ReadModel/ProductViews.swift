import Contracts
import Foundation

/// A product in a result list.
package struct ProductSummary: Codable, Sendable, Equatable {
    var id: UUID
    var name: String
    var brand: String
    var category: String
    var unit: String
    var image: String?
    var caloriesPerUnit: Int
    /// The lowest price of any offer.
    var cheapestPrice: Money?
    var averageRating: Double?
    var reviewCount: Int
}

/// A product with its offers.
struct ProductDetail: Codable, Sendable, Equatable {
    var product: ProductSummary
    var offers: [OfferView]
    /// Whether the caller marked it as a favourite (nil when not signed in).
    var favorite: Bool?

    enum CodingKeys: String, CodingKey { case offers, favorite }

    func encode(to encoder: any Encoder) throws {
        try product.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(offers, forKey: .offers)
        try container.encodeIfPresent(favorite, forKey: .favorite)
    }

    init(product: ProductSummary, offers: [OfferView], favorite: Bool?) {
        self.product = product
        self.offers = offers
        self.favorite = favorite
    }

    init(from decoder: any Decoder) throws {
        product = try ProductSummary(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        offers = try container.decode([OfferView].self, forKey: .offers)
        favorite = try container.decodeIfPresent(Bool.self, forKey: .favorite)
    }
}

/// One store's offer for a product.
struct OfferView: Codable, Sendable, Equatable {
    var storeId: UUID
    var retailer: String
    var storeName: String
    var address: String
    var lat: Double
    var lon: Double
    var price: Money
    var directionsURL: String
    /// From the `lat`/`lon` of the query, when given.
    var distanceMeters: Double?
    /// The cheapest offer within the nearby radius of the query's point.
    var cheapestNearby: Bool
}

/// A product that shares lists with another, and on how many.
struct RelatedProduct: Codable, Sendable, Equatable {
    var product: ProductSummary
    var sharedLists: Int

    enum CodingKeys: String, CodingKey { case sharedLists }

    func encode(to encoder: any Encoder) throws {
        try product.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sharedLists, forKey: .sharedLists)
    }

    init(product: ProductSummary, sharedLists: Int) {
        self.product = product
        self.sharedLists = sharedLists
    }

    init(from decoder: any Decoder) throws {
        product = try ProductSummary(from: decoder)
        sharedLists = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .sharedLists)
    }
}

/// A review as others see it.
struct ReviewView: Codable, Sendable, Equatable {
    var productId: UUID
    var authorId: UUID
    var rating: Int
    var text: String
    var at: Date
}
