import CPhotoCodec

/// Stops a running ``PhotoCleaner/clean(_:maximumCleanedBytes:cancellation:)`` from any
/// thread: libvips checks it at each stage and as it computes each tile.
public final class PhotoCancellation: @unchecked Sendable {
    // Sendable by hand: the C flag is an atomic, set and read from any thread, and `flag`
    // itself never changes.
    let flag: OpaquePointer?

    public init() { flag = photo_codec_flag_new() }

    deinit { photo_codec_flag_free(flag) }

    /// Stops the cleaning given this flag, if it is running or when it starts.
    public func cancel() { photo_codec_cancel(flag) }
}
