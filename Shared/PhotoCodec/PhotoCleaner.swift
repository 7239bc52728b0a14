import CPhotoCodec

/// Cleans uploads with libvips: decodes the whole picture (so a truncated or corrupt file
/// is refused), turns it upright by the camera's orientation tag, converts it to sRGB, and
/// encodes it again with every piece of metadata stripped, in each ``PhotoSize``.
///
/// Each call blocks its thread for as long as the picture takes (about 0.1–0.5 s for a
/// phone photo): run it on a thread pool, never on an event loop.
public enum PhotoCleaner {
    /// The largest upload accepted, in bytes (10 MiB).
    public static let maximumUploadBytes = 10 * 1024 * 1024
    /// The most pixels a picture may have (about a 100-megapixel camera), checked from its
    /// header before anything is decoded.
    public static let maximumPixels = 100_000_000
    /// The largest cleaned original kept, in bytes (20 MiB): what is stored and served is
    /// bounded, not only what is uploaded.
    public static let maximumCleanedBytes = 20 * 1024 * 1024
    /// JPEG and WebP quality of what is served.
    public static let quality: Int32 = 85

    /// The format libvips reads `bytes` as, if it is one Commons accepts.
    public static func format(of bytes: [UInt8]) -> PhotoFormat? {
        loader(of: bytes).flatMap(PhotoFormat.init(loader:))
    }

    /// `bytes` cleaned in every size, or why not; refused when a cleaned size is larger than
    /// `maximumCleanedBytes`, and stopped (``PhotoRefusal/cancelled``) soon after `cancellation`
    /// is set, at any stage.
    public static func clean(
        _ bytes: [UInt8], maximumCleanedBytes: Int = maximumCleanedBytes, cancellation: PhotoCancellation? = nil
    ) throws(PhotoRefusal) -> CleanedPhoto {
        let loader = loader(of: bytes)
        guard let loader, let source = PhotoFormat(loader: loader) else { throw .unsupportedFormat(loader: loader) }
        let served = source.served
        let edges = PhotoSize.variants.map { Int32($0.longEdge!) }
        var outputs = [photo_codec_output](repeating: photo_codec_output(), count: edges.count + 1)
        let status = bytes.withUnsafeBytes { input in
            edges.withUnsafeBufferPointer { edges in
                photo_codec_encode(
                    input.baseAddress, input.count, served.suffix, quality, edges.baseAddress, Int32(edges.count),
                    Int64(maximumPixels), cancellation?.flag, &outputs)
            }
        }
        defer { for output in outputs { photo_codec_free(output.data) } }
        switch status {
        case PHOTO_CODEC_OK: break
        case PHOTO_CODEC_UNKNOWN_FORMAT: throw .unsupportedFormat(loader: loader)
        case PHOTO_CODEC_UNDECODABLE: throw .undecodable(reason: lastError())
        case PHOTO_CODEC_TOO_MANY_PIXELS: throw .tooManyPixels
        case PHOTO_CODEC_CANCELLED: throw .cancelled
        default: throw .encodingFailed(reason: lastError())
        }
        guard outputs.allSatisfy({ $0.length <= maximumCleanedBytes }) else { throw .tooLargeCleaned }
        var sizes: [PhotoSize: EncodedPhoto] = [:]
        for (size, output) in zip([PhotoSize.original] + PhotoSize.variants, outputs) {
            let bytes = [UInt8](UnsafeRawBufferPointer(start: output.data, count: output.length))
            sizes[size] = EncodedPhoto(bytes: bytes, format: served, width: Int(output.width), height: Int(output.height))
        }
        return CleanedPhoto(source: source, sizes: sizes)
    }

    private static func loader(of bytes: [UInt8]) -> String? {
        bytes.withUnsafeBytes { input in photo_codec_loader(input.baseAddress, input.count).map { String(cString: $0) } }
    }

    private static func lastError() -> String {
        var buffer = [CChar](repeating: 0, count: 512)
        photo_codec_last_error(&buffer, buffer.count)
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.split(whereSeparator: \.isNewline).first.map(String.init) ?? "libvips gave no reason"
    }
}
