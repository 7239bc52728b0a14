import Contracts
import EventLog
import Foundation

/// Every price each store asked for a product, oldest first, folded from the product's
/// stream: its first offers, each price change, and offers withdrawn.
public enum PriceHistory {
    /// One price, from `since` until the next entry of the same store (or now).
    public struct Entry: Codable, Sendable, Equatable {
        public var storeId: UUID
        /// Nil when the store stopped offering the product.
        public var price: Money?
        public var since: Date

        public init(storeId: UUID, price: Money?, since: Date) {
            self.storeId = storeId
            self.price = price
            self.since = since
        }
    }

    /// The entries of `events` (each with the time it was recorded), optionally of one store.
    public static func entries(_ events: [(event: any EventContract, at: Date)], store: UUID? = nil) -> [Entry] {
        events.flatMap { entries(of: $0.event, at: $0.at, store: store) }
    }

    /// The entries one event adds (none for an event that changes no price), optionally of one store.
    public static func entries(of event: any EventContract, at: Date, store: UUID? = nil) -> [Entry] {
        let entries: [Entry]
        switch event {
        case let listed as ProductListed:
            entries = listed.offers.map { Entry(storeId: $0.storeId, price: $0.price, since: at) }
        case let changed as ProductPriceChanged:
            entries = [Entry(storeId: changed.storeId, price: changed.price, since: at)]
        case let withdrawn as ProductOfferWithdrawn:
            entries = [Entry(storeId: withdrawn.storeId, price: nil, since: at)]
        default:
            entries = []
        }
        return store.map { store in entries.filter { $0.storeId == store } } ?? entries
    }
}
