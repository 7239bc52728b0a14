import Contracts
import Foundation
import ShoppingListsDomain

/// A small catalogue around Utrecht for tests: three stores (two in the centre, one in
/// Amsterdam) and a few dairy and bakery products, plus fillers for paging.
enum TestCatalog {
    static let centre = CatalogFile.Store(
        id: UUID(), retailer: "Buurtmarkt", name: "Buurtmarkt Binnenstad", address: "Oudegracht 10, Utrecht",
        lat: 52.0907, lon: 5.1214)
    static let lombok = CatalogFile.Store(
        id: UUID(), retailer: "Prijsknaller", name: "Prijsknaller Lombok", address: "Kanaalstraat 20, Utrecht",
        lat: 52.0919, lon: 5.1030)
    static let amsterdam = CatalogFile.Store(
        id: UUID(), retailer: "Versplein", name: "Versplein Centrum", address: "Damrak 1, Amsterdam",
        lat: 52.3731, lon: 4.8926)

    static let wholeMilk = UUID()
    static let skimmedMilk = UUID()
    static let chocolate = UUID()
    static let bread = UUID()
    static let butter = UUID()

    static func euros(_ cents: Int) -> Money { Money(amountMinor: cents, currency: "EUR") }

    static func product(
        _ id: UUID, _ name: String, _ brand: String, _ category: String, calories: Int, prices: [(CatalogFile.Store, Int)]
    ) -> CatalogFile.Product {
        CatalogFile.Product(
            id: id, name: name, brand: brand, category: category, unit: "1 each", image: nil, caloriesPerUnit: calories,
            offers: prices.map { ProductOffer(storeId: $0.0.id, price: euros($0.1)) })
    }

    /// The catalogue, with the whole milk at `milkPrice` cents in the centre.
    static func file(milkPrice: Int = 119, fillers: Int = 25) -> CatalogFile {
        var products = [
            product(wholeMilk, "Whole milk", "Polderhoeve", "Dairy", calories: 640, prices: [(centre, milkPrice), (lombok, 125), (amsterdam, 99)]),
            product(skimmedMilk, "Semi-skimmed milk", "Zonnedal", "Dairy", calories: 460, prices: [(centre, 109)]),
            product(chocolate, "Milk chocolate", "Molenaar", "Snacks", calories: 540, prices: [(lombok, 179)]),
            product(bread, "Wholemeal bread", "Bakkerij Smit", "Bakery", calories: 1900, prices: [(centre, 229), (lombok, 219)]),
            product(butter, "Butter", "Polderhoeve", "Dairy", calories: 1800, prices: [(centre, 289)]),
        ]
        for n in 0..<fillers {
            products.append(product(fillerId(n), "Apple variety \(n)", "Fruitgaard", "Produce", calories: 80, prices: [(centre, 30 + n)]))
        }
        return CatalogFile(stores: [centre, lombok, amsterdam], products: products)
    }

    private static let fillerIds = (0..<200).map { _ in UUID() }
    static func fillerId(_ n: Int) -> UUID { fillerIds[n] }
}
