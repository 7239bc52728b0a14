import Geo
import GeoSearchDomain

extension GeoSearchAPI {
    /// The most cells of the grid one search looks at, over its boxes and bands; a wider
    /// search (a sparse area, a radius of hundreds of kilometres) reads SQLite's index instead.
    static let memoryCellLimit = 20_000

    /// ``nearest(_:filters:needed:after:)`` over the listings in memory: the same growing
    /// circle, the same filters, the same budget; nil when a circle would cover more than
    /// ``memoryCellLimit`` cells. Full-text filters are not in memory: the caller reads SQLite for those.
    static func nearest(
        _ query: NearbyQuery, filters: ListingFilters, needed: Int, after: PagePosition?,
        in snapshot: ListingPlaces.Snapshot, budget: ScanBudget
    ) throws -> [(position: PagePosition, item: FoundListing)]? {
        let codes: [Int64]
        if let category = filters.category {
            guard let code = snapshot.code(of: category) else { return [] } // a category nothing was ever posted in
            codes = [code]
        } else {
            codes = Array(snapshot.categories.values)
        }
        let bands = codes.map { GeoSearchProjection.band(code: $0, status: filters.status) }
        return try NearestSearch.nearest(needed: needed, queryRadius: query.radiusMeters, after: after) {
            radius -> [(position: PagePosition, match: ListingPlaces.Place)]? in
            let boxes = LatLonBox.covering(center: query.center, radiusMeters: radius)
            let cells = boxes.reduce(0) { $0 + PlaceGrid<ListingPlaces.Place>.cellCount(of: $1) } * bands.count
            guard cells <= memoryCellLimit else { return nil }
            var ranked: [(position: PagePosition, match: ListingPlaces.Place)] = []
            var seen = Set<PagePosition>()
            for box in boxes {
                for band in bands {
                    try snapshot.grid.forEach(in: box, band: band) { point, place in
                        if let free = filters.free, place.free != free { return }
                        if let posted = filters.postedAfter, place.posted <= posted { return }
                        try budget.spend()
                        let meters = query.center.distanceMeters(to: point)
                        guard meters <= radius else { return }
                        let position = PagePosition.distance(meters, id: place.result.id)
                        guard after.map({ $0.precedes(position) }) ?? true else { return }
                        // A point on the edge of two boxes comes twice.
                        if boxes.count > 1, !seen.insert(position).inserted { return }
                        ranked.append((position, place))
                    }
                }
            }
            return ranked
        }?.map { (position: $0.position, item: .kept($0.match, distanceMeters: $0.position.value)) }
    }
}
