/// The unit a query's radius is written in (`unit=km|mi`).
public enum DistanceUnit: String, Sendable, CaseIterable, Codable {
    /// Kilometres, the default.
    case kilometers = "km"
    /// International miles.
    case miles = "mi"

    /// Metres in one of this unit; a mile is the international mile.
    public var meters: Double {
        switch self {
        case .kilometers: 1_000
        case .miles: 1_609.344
        }
    }
}
