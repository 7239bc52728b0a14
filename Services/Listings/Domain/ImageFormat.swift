/// The picture formats an upload may be, told from the bytes themselves (never from a
/// header the client sent).
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg, png, webp, heic

    /// The media type it is served with.
    public var contentType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        case .heic: "image/heic"
        }
    }

    /// HEIF brands of still images (`ftyp` major or compatible brands).
    static let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]

    /// The format of `bytes`, or nil when they are none of these.
    public static func detect(_ bytes: [UInt8]) -> ImageFormat? {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) { return .webp }
        if isHEIF(bytes) { return .heic }
        return nil
    }

    /// An ISO base media file whose first box is `ftyp` naming a HEIF brand.
    private static func isHEIF(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 16, Array(bytes[4..<8]) == Array("ftyp".utf8) else { return false }
        let boxSize = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        let end = min(bytes.count, max(16, boxSize))
        // The major brand at 8, a minor version at 12, then compatible brands from 16.
        var offsets = [8]
        offsets.append(contentsOf: stride(from: 16, to: end - 3, by: 4))
        return offsets.contains { offset in
            heifBrands.contains(String(decoding: bytes[offset..<offset + 4], as: UTF8.self))
        }
    }
}
