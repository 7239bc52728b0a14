/// What an upload becomes before it is stored: its format and the bytes to keep.
public struct ImageUpload: Sendable, Equatable {
    public var format: ImageFormat
    public var bytes: [UInt8]

    public init(format: ImageFormat, bytes: [UInt8]) {
        self.format = format
        self.bytes = bytes
    }

    /// The largest upload accepted, in bytes (10 MB).
    public static let maximumBytes = 10 * 1024 * 1024

    /// Why an upload is refused.
    public enum Refusal: Error, Equatable, Sendable {
        case unsupportedFormat
        case malformedJPEG
    }

    /// Detects the format of `bytes` and strips location metadata from a JPEG.
    public static func prepare(_ bytes: [UInt8]) throws(Refusal) -> ImageUpload {
        guard let format = ImageFormat.detect(bytes) else { throw .unsupportedFormat }
        guard format == .jpeg else { return ImageUpload(format: format, bytes: bytes) }
        guard let stripped = JPEGMetadataStripper.strip(bytes) else { throw .malformedJPEG }
        return ImageUpload(format: .jpeg, bytes: stripped)
    }
}
