import Contracts
import Foundation
import Geo

/// A store's offer for a product, where the store is.
public struct PlacedOffer: Sendable, Equatable {
    public var storeId: UUID
    public var price: Money
    public var location: GeoCoordinate

    public init(storeId: UUID, price: Money, location: GeoCoordinate) {
        self.storeId = storeId
        self.price = price
        self.location = location
    }
}

/// An offer seen from where someone is.
public struct RankedOffer: Sendable, Equatable {
    public var offer: PlacedOffer
    public var distanceMeters: Double?
    /// The lowest price among the offers within the nearby radius (ties: the nearer).
    public var isCheapestNearby: Bool
}

/// Orders a product's offers: nearest first from a point, else cheapest first.
public enum OfferRanking {
    /// Offers this close count as nearby.
    public static let defaultNearbyMeters = 5_000.0

    public static func rank(_ offers: [PlacedOffer], from point: GeoCoordinate?, nearbyMeters: Double = defaultNearbyMeters) -> [RankedOffer] {
        guard let point else {
            return offers.sorted { ($0.price.amountMinor, $0.storeId.uuidString) < ($1.price.amountMinor, $1.storeId.uuidString) }
                .map { RankedOffer(offer: $0, distanceMeters: nil, isCheapestNearby: false) }
        }
        var ranked = offers.map { RankedOffer(offer: $0, distanceMeters: point.distanceMeters(to: $0.location), isCheapestNearby: false) }
            .sorted { ($0.distanceMeters ?? 0, $0.offer.storeId.uuidString) < ($1.distanceMeters ?? 0, $1.offer.storeId.uuidString) }
        let nearby = ranked.indices.filter { (ranked[$0].distanceMeters ?? .infinity) <= nearbyMeters }
        // Sorted by distance already, so the first minimum is the nearest of the cheapest.
        if let cheapest = nearby.min(by: { ranked[$0].offer.price.amountMinor < ranked[$1].offer.price.amountMinor }) {
            ranked[cheapest].isCheapestNearby = true
        }
        return ranked
    }
}
