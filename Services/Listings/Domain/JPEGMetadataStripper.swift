/// Removes the metadata segments of a JPEG that can say where a photo was taken: APP1
/// (Exif, with its GPS block, and XMP) and APP13 (Photoshop/IPTC). Everything else — the
/// image data, tables and other segments — is kept byte for byte.
///
/// Orientation lives in Exif too, so a stripped photo shows as the camera's sensor saw it.
public enum JPEGMetadataStripper {
    static let app1: UInt8 = 0xE1
    static let app13: UInt8 = 0xED

    /// The JPEG without location-bearing metadata, or nil when the segments before the
    /// image data do not parse or end before any (not a JPEG, or a truncated one).
    public static func strip(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.starts(with: [0xFF, 0xD8]) else { return nil }
        var output: [UInt8] = [0xFF, 0xD8]
        output.reserveCapacity(bytes.count)
        var index = 2
        while index < bytes.count {
            // Fill bytes (0xFF repeated) may come before a marker.
            guard bytes[index] == 0xFF else { return nil }
            var markerIndex = index + 1
            while markerIndex < bytes.count, bytes[markerIndex] == 0xFF { markerIndex += 1 }
            guard markerIndex < bytes.count else { return nil }
            let marker = bytes[markerIndex]
            switch marker {
            case 0xD9:
                // End of image.
                output.append(contentsOf: [0xFF, 0xD9])
                return output
            case 0xDA:
                // Start of scan: the entropy-coded data and whatever follows are kept whole.
                output.append(contentsOf: bytes[index...])
                return output
            case 0x01, 0xD0...0xD7:
                output.append(contentsOf: [0xFF, marker])
                index = markerIndex + 1
            default:
                guard markerIndex + 2 < bytes.count else { return nil }
                let length = Int(bytes[markerIndex + 1]) << 8 | Int(bytes[markerIndex + 2])
                let end = markerIndex + 1 + length
                guard length >= 2, end <= bytes.count else { return nil }
                if marker != app1 && marker != app13 {
                    output.append(0xFF)
                    output.append(contentsOf: bytes[markerIndex..<end])
                }
                index = end
            }
        }
        // No scan and no end: there is no picture in it.
        return nil
    }
}
