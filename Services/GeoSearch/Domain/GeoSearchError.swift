/// What can go wrong in a geo-search request. The service maps each to a problem document.
public enum GeoSearchError: Error, Equatable, Sendable {
    /// Bad or missing query fields, keyed by parameter name, each with every problem it has.
    case invalid([String: [String]])
}
