import Foundation

extension GeoCoordinate {
    /// A link that opens Apple Maps with directions to this point:
    /// `https://maps.apple.com/?daddr=<lat>,<lon>`, each with 6 decimals (about 0.1 m).
    public var directionsURL: URL {
        // Digits, signs, dots and one comma always make a valid URL.
        URL(string: "https://maps.apple.com/?daddr=\(sixDecimals(lat)),\(sixDecimals(lon))")!
    }
}

private func sixDecimals(_ value: Double) -> String {
    let text = String(format: "%.6f", value)
    // A tiny negative number rounds to "-0.000000", which is 0 to everyone.
    return text == "-0.000000" ? "0.000000" : text
}
