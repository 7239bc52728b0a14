/// How a nearest-first query grows its search circle: instead of reading every match within
/// the query's radius and sorting them all, it reads a small circle first and widens it only
/// until the circle holds more matches than the page needs. Every point within the circle is
/// in the index boxes that cover it, so once the circle holds `needed` matches, no match
/// outside can come before them; the page is then exact.
public enum NearestSearch {
    /// The first circle's radius: a sixteenth of the query's, but at most 2 km (a huge radius
    /// must not start by reading a country), never less than 50 m, nor short of the cursor's
    /// distance (a later page starts where the last one ended).
    public static func firstRadius(queryRadius: Double, cursorDistance: Double?) -> Double {
        min(queryRadius, max(50, min(queryRadius / 16, 2_000), (cursorDistance ?? 0) * 1.25))
    }

    /// The next circle after `radius` held only `found` of the `needed` matches: scaled by the
    /// area the missing ones should take at the density seen so far (with a margin), at least
    /// doubled, and never past the query's radius.
    public static func nextRadius(after radius: Double, found: Int, needed: Int, queryRadius: Double) -> Double {
        let scale = found > 0 ? (Double(needed) / Double(found)).squareRoot() * 1.3 : 4
        return min(queryRadius, radius * max(2, scale))
    }

    /// The `needed` nearest matches after `after`, nearest first: `collect` gives the matches
    /// within a circle of the radius it is given (with their positions, already past `after`),
    /// or nil to give up (the caller then searches another way); the circle grows from
    /// ``firstRadius(queryRadius:cursorDistance:)`` until it holds enough or reaches `queryRadius`.
    @inlinable
    public static func nearest<Match>(
        needed: Int, queryRadius: Double, after: PagePosition?,
        _ collect: (_ radius: Double) throws -> [(position: PagePosition, match: Match)]?
    ) rethrows -> [(position: PagePosition, match: Match)]? {
        var radius = firstRadius(queryRadius: queryRadius, cursorDistance: after?.value)
        while true {
            guard let found = try collect(radius) else { return nil }
            if found.count >= needed || radius >= queryRadius {
                return Array(found.sorted { $0.position.precedes($1.position) }.prefix(needed))
            }
            radius = nextRadius(after: radius, found: found.count, needed: needed, queryRadius: queryRadius)
        }
    }
}
