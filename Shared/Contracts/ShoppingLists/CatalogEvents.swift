import EventLog
import Foundation

// Events of the product catalogue, written by the `shopping-lists` service when a
// catalogue file is imported. Nothing here is personal.

/// A store where products are offered. Appended when first imported and again whenever
/// its details change (the latest one holds). Stream: `store-<storeId>`.
public struct StoreListed: EventContract, Equatable {
    public static let eventType = "StoreListed"
    public var storeId: UUID
    public var retailer: String
    public var name: String
    public var address: String
    public var location: Coordinate

    public init(storeId: UUID, retailer: String, name: String, address: String, location: Coordinate) {
        self.storeId = storeId
        self.retailer = retailer
        self.name = name
        self.address = address
        self.location = location
    }
}

/// What describes a product, apart from its offers.
public struct ProductDetails: Codable, Sendable, Hashable {
    public var name: String
    public var brand: String
    public var category: String
    /// The pack a price and the calories refer to, e.g. `1 l`, `500 g`, `each`.
    public var unit: String
    /// An image URL.
    public var image: String?
    /// Kilocalories in one unit (one pack).
    public var caloriesPerUnit: Int

    public init(name: String, brand: String, category: String, unit: String, image: String?, caloriesPerUnit: Int) {
        self.name = name
        self.brand = brand
        self.category = category
        self.unit = unit
        self.image = image
        self.caloriesPerUnit = caloriesPerUnit
    }
}

/// A store's price for one unit of a product.
public struct ProductOffer: Codable, Sendable, Hashable {
    public var storeId: UUID
    public var price: Money

    public init(storeId: UUID, price: Money) {
        self.storeId = storeId
        self.price = price
    }
}

/// A product entered the catalogue, with its first offers. Stream: `product-<productId>`.
public struct ProductListed: EventContract, Equatable {
    public static let eventType = "ProductListed"
    public var productId: UUID
    public var details: ProductDetails
    public var offers: [ProductOffer]

    public init(productId: UUID, details: ProductDetails, offers: [ProductOffer]) {
        self.productId = productId
        self.details = details
        self.offers = offers
    }
}

/// A product's name, brand, category, unit, image or calories changed. Stream: `product-<productId>`.
public struct ProductDetailsChanged: EventContract, Equatable {
    public static let eventType = "ProductDetailsChanged"
    public var productId: UUID
    public var details: ProductDetails

    public init(productId: UUID, details: ProductDetails) {
        self.productId = productId
        self.details = details
    }
}

/// A store's price for a product changed, or the store started offering it (`previous`
/// nil). The stream keeps every price a product had. Stream: `product-<productId>`.
public struct ProductPriceChanged: EventContract, Equatable {
    public static let eventType = "ProductPriceChanged"
    public var productId: UUID
    public var storeId: UUID
    public var price: Money
    public var previous: Money?

    public init(productId: UUID, storeId: UUID, price: Money, previous: Money?) {
        self.productId = productId
        self.storeId = storeId
        self.price = price
        self.previous = previous
    }
}

/// A store stopped offering a product. Stream: `product-<productId>`.
public struct ProductOfferWithdrawn: EventContract, Equatable {
    public static let eventType = "ProductOfferWithdrawn"
    public var productId: UUID
    public var storeId: UUID

    public init(productId: UUID, storeId: UUID) {
        self.productId = productId
        self.storeId = storeId
    }
}
