/// Arithmetic on numbers the domain did not bound itself (replayed facts, catalogue
/// values) that answers the nearest representable value instead of trapping (issue 21).
extension Int {
    /// `self + other`, or `Int.max` / `Int.min` where that overflows.
    func saturatingSum(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other < 0 ? .min : .max) : sum
    }

    /// `self * other`, or `Int.max` / `Int.min` where that overflows.
    func saturatingProduct(_ other: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? ((self < 0) == (other < 0) ? .max : .min) : product
    }
}
