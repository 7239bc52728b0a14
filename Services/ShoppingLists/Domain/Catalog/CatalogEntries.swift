import Contracts
import EventLog
import Foundation

/// A product as its stream says it is now: details and the price at each store.
public struct CatalogProductState: Sendable, Equatable {
    public private(set) var details: ProductDetails?
    public private(set) var offers: [UUID: Money] = [:]

    public init() {}

    /// The state after `events` (of one `product-<id>` stream), oldest first.
    public static func replay(_ events: [any EventContract]) -> CatalogProductState {
        var state = CatalogProductState()
        for event in events {
            switch event {
            case let listed as ProductListed:
                state.details = listed.details
                state.offers = Dictionary(listed.offers.map { ($0.storeId, $0.price) }, uniquingKeysWith: { $1 })
            case let changed as ProductDetailsChanged: state.details = changed.details
            case let priced as ProductPriceChanged: state.offers[priced.storeId] = priced.price
            case let withdrawn as ProductOfferWithdrawn: state.offers[withdrawn.storeId] = nil
            default: break
            }
        }
        return state
    }

    /// The events that bring the product from this state to `entry` of a catalogue file:
    /// none when nothing changed, so importing the same file twice appends nothing. A
    /// changed price is a price change (the stream keeps the old one).
    public func changes(toMatch entry: CatalogFile.Product) -> [any EventContract] {
        let wanted = Dictionary(entry.offers.map { ($0.storeId, $0.price) }, uniquingKeysWith: { $1 })
        guard let details else {
            return [
                ProductListed(
                    productId: entry.id, details: entry.details, offers: entry.offers.sorted { $0.storeId.uuidString < $1.storeId.uuidString })
            ]
        }
        var events: [any EventContract] = []
        if details != entry.details { events.append(ProductDetailsChanged(productId: entry.id, details: entry.details)) }
        for (store, price) in wanted.sorted(by: { $0.key.uuidString < $1.key.uuidString }) where offers[store] != price {
            events.append(ProductPriceChanged(productId: entry.id, storeId: store, price: price, previous: offers[store]))
        }
        for store in offers.keys.sorted(by: { $0.uuidString < $1.uuidString }) where wanted[store] == nil {
            events.append(ProductOfferWithdrawn(productId: entry.id, storeId: store))
        }
        return events
    }
}

extension CatalogFile.Store {
    /// The event that lists this store, or restates it when `current` (its last listing) differs.
    public func listing(replacing current: StoreListed?) -> StoreListed? {
        let listed = StoreListed(storeId: id, retailer: retailer, name: name, address: address, location: Coordinate(lat: lat, lon: lon))
        return listed == current ? nil : listed
    }
}
