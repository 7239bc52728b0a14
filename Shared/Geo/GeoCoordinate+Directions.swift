import Foundation

extension GeoCoordinate {
    /// A link that opens Apple Maps with directions to this point:
    /// `https://maps.apple.com/?daddr=<lat>,<lon>`, each with 6 decimals (about 0.1 m).
    public var directionsLink: String {
        "https://maps.apple.com/?daddr=\(SixDecimals.text(lat)),\(SixDecimals.text(lon))"
    }

    /// ``directionsLink`` as a URL.
    public var directionsURL: URL {
        // Digits, signs, dots and one comma always make a valid URL.
        URL(string: directionsLink)!
    }
}

/// A degree written as `%.6f` writes it, but never `-0.000000` (a tiny negative number is 0
/// to everyone). Written by hand from whole millionths: `String(format:)` and parsing a `URL`
/// were a quarter of a nearby search (issue 17).
package enum SixDecimals {
    package static func text(_ value: Double) -> String {
        let scaled = value * 1_000_000
        // The product is off the exact millionths by at most an ulp (3e-8 at 180 degrees), so
        // it rounds the way printf rounds the exact value unless it lies within a hair of a half.
        let fraction = abs(scaled - scaled.rounded(.towardZero))
        guard value.isFinite, abs(scaled) < 1e15, abs(fraction - 0.5) > 1e-6 else { return formatted(value) }
        let millionths = Int64(scaled.rounded())
        guard millionths != 0 else { return "0.000000" }
        let magnitude = millionths.magnitude
        let decimals = String(magnitude % 1_000_000)
        return (millionths < 0 ? "-" : "") + String(magnitude / 1_000_000) + "." + String(repeating: "0", count: 6 - decimals.count) + decimals
    }

    /// What printf writes, for the values the fast path leaves alone.
    package static func formatted(_ value: Double) -> String {
        let text = String(format: "%.6f", value)
        return text == "-0.000000" ? "0.000000" : text
    }
}
