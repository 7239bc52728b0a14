import Codecs
import Contracts
import Foundation

/// A catalogue file as `commons catalog import` reads it (see `Data/catalog.json`): stores,
/// and products with their offers at those stores.
public struct CatalogFile: Codable, Sendable, Equatable {
    public struct Store: Codable, Sendable, Equatable {
        public var id: UUID
        public var retailer: String
        public var name: String
        public var address: String
        public var lat: Double
        public var lon: Double

        public init(id: UUID, retailer: String, name: String, address: String, lat: Double, lon: Double) {
            self.id = id
            self.retailer = retailer
            self.name = name
            self.address = address
            self.lat = lat
            self.lon = lon
        }
    }

    public struct Product: Codable, Sendable, Equatable {
        public var id: UUID
        public var name: String
        public var brand: String
        public var category: String
        public var unit: String
        public var image: String?
        public var caloriesPerUnit: Int
        public var offers: [ProductOffer]

        public init(
            id: UUID, name: String, brand: String, category: String, unit: String, image: String?, caloriesPerUnit: Int,
            offers: [ProductOffer]
        ) {
            self.id = id
            self.name = name
            self.brand = brand
            self.category = category
            self.unit = unit
            self.image = image
            self.caloriesPerUnit = caloriesPerUnit
            self.offers = offers
        }

        public var details: ProductDetails {
            ProductDetails(name: name, brand: brand, category: category, unit: unit, image: image, caloriesPerUnit: caloriesPerUnit)
        }
    }

    public var stores: [Store]
    public var products: [Product]

    public init(stores: [Store], products: [Product]) {
        self.stores = stores
        self.products = products
    }

    /// Everything wrong with the file, keyed by a JSON path such as `products[3].offers[0].price`;
    /// empty when it can be imported.
    public func problems() -> [String: [String]] {
        var problems: [String: [String]] = [:]
        func add(_ path: String, _ problem: String) { problems[path, default: []].append(problem) }
        var storeIds = Set<UUID>()
        for (index, store) in stores.enumerated() {
            let path = "stores[\(index)]"
            if !storeIds.insert(store.id).inserted { add("\(path).id", "is used by another store") }
            for (field, value) in [("retailer", store.retailer), ("name", store.name), ("address", store.address)]
            where value.trimmingWhitespace().isEmpty { add("\(path).\(field)", "must not be empty") }
            if let problem = GeoRules.latitudeProblem(store.lat) { add("\(path).lat", problem) }
            if let problem = GeoRules.longitudeProblem(store.lon) { add("\(path).lon", problem) }
        }
        var productIds = Set<UUID>()
        for (index, product) in products.enumerated() {
            let path = "products[\(index)]"
            if !productIds.insert(product.id).inserted { add("\(path).id", "is used by another product") }
            for (field, value) in [("name", product.name), ("brand", product.brand), ("category", product.category), ("unit", product.unit)]
            where value.trimmingWhitespace().isEmpty { add("\(path).\(field)", "must not be empty") }
            if product.caloriesPerUnit < 0 { add("\(path).caloriesPerUnit", "must not be negative") }
            var offered = Set<UUID>()
            for (offerIndex, offer) in product.offers.enumerated() {
                let offerPath = "\(path).offers[\(offerIndex)]"
                if !storeIds.contains(offer.storeId) { add("\(offerPath).storeId", "is not a store of this file") }
                if !offered.insert(offer.storeId).inserted { add("\(offerPath).storeId", "has another offer for this product") }
                if let problem = MoneyRules.priceProblem(offer.price) { add("\(offerPath).price", problem) }
            }
        }
        return problems
    }
}

/// The coordinate checks of a catalogue, without the server stack.
enum GeoRules {
    static func latitudeProblem(_ lat: Double) -> String? {
        lat.isFinite && (-90...90).contains(lat) ? nil : "must be a latitude from -90 to 90"
    }

    static func longitudeProblem(_ lon: Double) -> String? {
        lon.isFinite && (-180...180).contains(lon) ? nil : "must be a longitude from -180 to 180"
    }
}

/// Prices are whole minor units of an ISO 4217 currency.
public enum MoneyRules {
    public static func priceProblem(_ price: Money) -> String? {
        if price.amountMinor <= 0 { return "must be more than 0 minor units" }
        if price.currency.count != 3 || !price.currency.allSatisfy({ $0.isASCII && $0.isUppercase }) {
            return "must have a three-letter ISO currency code such as EUR"
        }
        return nil
    }
}
