import Foundation

extension GeoCoordinate {
    /// A link that opens Apple Maps with directions to this point:
    /// `https://maps.apple.com/?daddr=<lat>,<lon>`, each with 6 decimals (about 0.1 m).
    public var directionsLink: String {
        guard let lat = SixDecimals.millionths(lat), let lon = SixDecimals.millionths(lon) else {
            return "https://maps.apple.com/?daddr=\(SixDecimals.text(lat)),\(SixDecimals.text(lon))"
        }
        // Written into one string: a search's page writes twenty of these.
        let prefix: StaticString = "https://maps.apple.com/?daddr="
        return String(unsafeUninitializedCapacity: prefix.utf8CodeUnitCount + 2 * SixDecimals.longest + 1) { buffer in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount))
            var end = prefix.utf8CodeUnitCount
            end = SixDecimals.write(lat, into: buffer, at: end)
            buffer[end] = UInt8(ascii: ",")
            return SixDecimals.write(lon, into: buffer, at: end + 1)
        }
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
        guard let millionths = millionths(value) else { return formatted(value) }
        return String(unsafeUninitializedCapacity: longest) { write(millionths, into: $0, at: 0) }
    }

    /// The most bytes ``write(_:into:at:)`` writes: a sign, nine whole digits, a point and six decimals.
    package static let longest = 17

    /// `value` in whole millionths, rounded as printf rounds it; nil where only printf can
    /// say (not finite, too large, or within a hair of a half).
    package static func millionths(_ value: Double) -> Int64? {
        let scaled = value * 1_000_000
        // The product is off the exact millionths by at most an ulp (3e-8 at 180 degrees), so
        // it rounds the way printf rounds the exact value unless it lies within a hair of a half.
        let fraction = abs(scaled - scaled.rounded(.towardZero))
        guard value.isFinite, abs(scaled) < 1e15, abs(fraction - 0.5) > 1e-6 else { return nil }
        return Int64(scaled.rounded())
    }

    /// Writes `millionths` as a degree with six decimals into `buffer` from `start` (at most
    /// ``longest`` bytes; zero has no sign); returns where it ended.
    package static func write(_ millionths: Int64, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        var end = start
        if millionths < 0 { buffer[end] = UInt8(ascii: "-"); end += 1 }
        let magnitude = millionths.magnitude
        var whole = magnitude / 1_000_000
        var digits = 1
        while whole >= 10 { whole /= 10; digits += 1 }
        whole = magnitude / 1_000_000
        for index in stride(from: end + digits - 1, through: end, by: -1) {
            buffer[index] = UInt8(ascii: "0") + UInt8(whole % 10)
            whole /= 10
        }
        end += digits
        buffer[end] = UInt8(ascii: ".")
        var decimals = magnitude % 1_000_000
        for index in stride(from: end + 6, through: end + 1, by: -1) {
            buffer[index] = UInt8(ascii: "0") + UInt8(decimals % 10)
            decimals /= 10
        }
        return end + 7
    }

    /// What printf writes, for the values the fast path leaves alone.
    package static func formatted(_ value: Double) -> String {
        let text = String(format: "%.6f", value)
        return text == "-0.000000" ? "0.000000" : text
    }
}
