import Foundation

/// A catalogue product, as searches and lists show it.
public struct Product: Codable, Sendable, Equatable {
    public var id: UUID
    public var name: String
    public var brand: String
    public var category: String
    public var unit: String
    public var image: String?
    public var caloriesPerUnit: Int
    /// The lowest price of any offer.
    public var cheapestPrice: Money?
    public var averageRating: Double?
    public var reviewCount: Int

    public init(
        id: UUID, name: String, brand: String, category: String, unit: String, image: String?, caloriesPerUnit: Int, cheapestPrice: Money?,
        averageRating: Double?, reviewCount: Int
    ) {
        self.id = id
        self.name = name
        self.brand = brand
        self.category = category
        self.unit = unit
        self.image = image
        self.caloriesPerUnit = caloriesPerUnit
        self.cheapestPrice = cheapestPrice
        self.averageRating = averageRating
        self.reviewCount = reviewCount
    }
}

/// A product with its offers (`GET /v1/products/{id}`): the product's fields, and beside
/// them `offers` and `favorite`.
public struct ProductDetail: Codable, Sendable, Equatable {
    public var product: Product
    public var offers: [Offer]
    /// Whether I marked it as a favourite (nil when not signed in).
    public var favorite: Bool?

    enum CodingKeys: String, CodingKey { case offers, favorite }

    public init(product: Product, offers: [Offer], favorite: Bool?) {
        self.product = product
        self.offers = offers
        self.favorite = favorite
    }

    public init(from decoder: any Decoder) throws {
        product = try Product(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        offers = try container.decode([Offer].self, forKey: .offers)
        favorite = try container.decodeIfPresent(Bool.self, forKey: .favorite)
    }

    public func encode(to encoder: any Encoder) throws {
        try product.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(offers, forKey: .offers)
        try container.encodeIfPresent(favorite, forKey: .favorite)
    }
}

/// A store's offer of a product.
public struct Offer: Codable, Sendable, Equatable {
    public var storeId: UUID
    public var retailer: String
    public var storeName: String
    public var address: String
    public var lat: Double
    public var lon: Double
    public var price: Money
    public var directionsURL: String
    /// From the query's point, when one was given.
    public var distanceMeters: Double?
    /// The cheapest offer within the radius of the query's point.
    public var cheapestNearby: Bool

    public init(
        storeId: UUID, retailer: String, storeName: String, address: String, lat: Double, lon: Double, price: Money, directionsURL: String,
        distanceMeters: Double?, cheapestNearby: Bool
    ) {
        self.storeId = storeId
        self.retailer = retailer
        self.storeName = storeName
        self.address = address
        self.lat = lat
        self.lon = lon
        self.price = price
        self.directionsURL = directionsURL
        self.distanceMeters = distanceMeters
        self.cheapestNearby = cheapestNearby
    }
}

/// A product often on the same lists as another (`GET /v1/products/{id}/related`): the
/// product's fields, and beside them `sharedLists`.
public struct RelatedProduct: Codable, Sendable, Equatable {
    public var product: Product
    /// On how many lists both are.
    public var sharedLists: Int

    enum CodingKeys: String, CodingKey { case sharedLists }

    public init(product: Product, sharedLists: Int) {
        self.product = product
        self.sharedLists = sharedLists
    }

    public init(from decoder: any Decoder) throws {
        product = try Product(from: decoder)
        sharedLists = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .sharedLists)
    }

    public func encode(to encoder: any Encoder) throws {
        try product.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sharedLists, forKey: .sharedLists)
    }
}

/// One price a store asked for a product, from `since` (`GET /v1/products/{id}/prices`);
/// `price` nil means the store stopped offering it.
public struct PricePoint: Codable, Sendable, Equatable {
    public var storeId: UUID
    public var price: Money?
    public var since: Date

    public init(storeId: UUID, price: Money?, since: Date) {
        self.storeId = storeId
        self.price = price
        self.since = since
    }
}

/// A review of a product.
public struct Review: Codable, Sendable, Equatable {
    public var productId: UUID
    public var authorId: UUID
    /// 1–5 stars.
    public var rating: Int
    public var text: String
    public var at: Date

    public init(productId: UUID, authorId: UUID, rating: Int, text: String, at: Date) {
        self.productId = productId
        self.authorId = authorId
        self.rating = rating
        self.text = text
        self.at = at
    }
}

/// `PUT /v1/products/{id}/review`: my review of a product.
public struct NewReview: Codable, Sendable, Equatable {
    /// 1–5 stars.
    public var rating: Int
    public var text: String?

    public init(rating: Int, text: String? = nil) {
        self.rating = rating
        self.text = text
    }
}
