/// One encoded picture.
public struct EncodedPhoto: Sendable, Equatable {
    public var bytes: [UInt8]
    public var format: ServedFormat
    public var width: Int
    public var height: Int

    public init(bytes: [UInt8], format: ServedFormat, width: Int, height: Int) {
        self.bytes = bytes
        self.format = format
        self.width = width
        self.height = height
    }
}

/// An upload made safe to serve: upright, in sRGB, with no metadata at all (no Exif, GPS,
/// XMP, IPTC or colour profile), in every ``PhotoSize``.
public struct CleanedPhoto: Sendable {
    /// What the upload was.
    public var source: PhotoFormat
    /// One picture per size; every size is present.
    public var sizes: [PhotoSize: EncodedPhoto]

    public init(source: PhotoFormat, sizes: [PhotoSize: EncodedPhoto]) {
        self.source = source
        self.sizes = sizes
    }

    /// The cleaned whole picture.
    public var original: EncodedPhoto { sizes[.original]! }
}

/// Why an upload cannot become a photo.
public enum PhotoRefusal: Error, Equatable, Sendable {
    /// Not one of the accepted formats (`loader` names what libvips took it for, if anything).
    case unsupportedFormat(loader: String?)
    /// An accepted format that does not decode: truncated or corrupt.
    case undecodable(reason: String)
    /// More pixels than ``PhotoCleaner/maximumPixels``.
    case tooManyPixels
    /// Larger once cleaned than ``PhotoCleaner/maximumCleanedBytes`` (a picture that compressed
    /// far better in its own format than it does re-encoded).
    case tooLargeCleaned
    /// Stopped by its ``PhotoCancellation`` (the request it served is gone).
    case cancelled
    /// libvips could not encode the result (not the uploader's fault).
    case encodingFailed(reason: String)
}
