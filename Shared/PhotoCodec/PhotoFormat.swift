/// The picture formats Commons accepts, as libvips tells them from the bytes themselves
/// (never from a header the client sent), and the format each is served in.
public enum PhotoFormat: String, Sendable, CaseIterable {
    case jpeg, png, webp, heif

    /// The format libvips' loader reads (its type name, e.g. `VipsForeignLoadJpegBuffer`,
    /// or nickname, `jpegload_buffer`), or nil for any other loader (GIF, TIFF, SVG, PDF, …),
    /// which Commons refuses.
    init?(loader: String) {
        let name = loader.lowercased()
        func reads(_ format: String) -> Bool { name.hasPrefix("\(format)load") || name.hasPrefix("vipsforeignload\(format)") }
        if reads("jpeg") {
            self = .jpeg
        } else if reads("png") {
            self = .png
        } else if reads("webp") {
            self = .webp
        } else if reads("heif") {
            self = .heif
        } else {
            return nil
        }
    }

    /// What a cleaned photo of this format is stored and served as. HEIC/HEIF becomes JPEG:
    /// most browsers cannot show it, and Debian's libheif may have no encoder.
    public var served: ServedFormat {
        switch self {
        case .jpeg, .heif: .jpeg
        case .png: .png
        case .webp: .webp
        }
    }

    /// The formats a person may upload, for messages.
    public static let acceptedNames = "JPEG, PNG, WebP or HEIC/HEIF"
}

/// A format photos are served in.
public enum ServedFormat: String, Sendable, CaseIterable {
    case jpeg, png, webp

    /// The media type it is served with.
    public var contentType: String { "image/\(rawValue)" }

    /// The libvips saver's file suffix.
    var suffix: String {
        switch self {
        case .jpeg: ".jpg"
        case .png: ".png"
        case .webp: ".webp"
        }
    }
}
