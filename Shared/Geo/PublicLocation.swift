import Foundation

/// Where a listing is, as geo-search may index, measure and show it: an approximate public
/// point, never the exact pickup point.
///
/// The guarantee: the public point is within `maximumDisplacementMeters` (500 m) of the exact
/// one, and it depends on nothing but which grid cell (at most 340 m a side, see
/// `PrivacyCell`) holds the exact point and on the listing's id. Every exact point in the
/// same cell gives the same public point, so nothing — no number of queries from different
/// centres, and no number of listings at the same address — reveals more than that cell.
/// Snapping first is what makes averaging useless: with a random offset around the exact
/// point instead, the mean of many listings from one home would converge on the home.
///
/// The offset within the cell comes from a stable hash of the id, so it is the same on every
/// call and in every process, and two listings at the same place get different points.
/// Anyone can recompute the offset from a listing id; that reveals the cell, which the public
/// point already shows, and nothing within it.
public struct PublicLocation: Sendable, Hashable {
    /// The public point: what results carry, what distances are measured to, what the index holds.
    public let point: GeoCoordinate

    /// The most the public point can be from the exact one, in metres (WGS-84 geodesic).
    public static let maximumDisplacementMeters = 500.0

    /// The public location of listing `listingId` whose exact point is `exact`.
    public init(listingId: UUID, exact: GeoCoordinate) {
        let northward = StableHash.mix(StableHash.fnv1a64(listingId.bytes))
        let eastward = StableHash.mix(northward)
        point = PrivacyCell(containing: exact).point(
            northward: StableHash.unitInterval(northward),
            eastward: StableHash.unitInterval(eastward)
        )
    }

    /// The distance in metres from a query's centre, to the public point.
    public func distanceMeters(from center: GeoCoordinate) -> Double {
        center.distanceMeters(to: point)
    }
}
