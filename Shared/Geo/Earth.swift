/// The figures of the Earth that Commons measures with.
public enum Earth {
    /// The mean radius of WGS-84, R₁ = (2a + b) / 3, in metres: the sphere that index boxes are drawn on.
    public static let meanRadiusMeters = 6_371_008.8
    /// The WGS-84 equatorial radius (semi-major axis), in metres.
    public static let equatorialRadiusMeters = 6_378_137.0
    /// The WGS-84 flattening, (a − b) / a.
    public static let flattening = 1 / 298.257223563

    /// Metres in one degree of arc on the mean sphere.
    static let metersPerDegree = meanRadiusMeters * .pi / 180
}
