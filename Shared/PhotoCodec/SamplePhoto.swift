import CPhotoCodec

/// Made-up pictures for tests and benchmarks.
public enum SamplePhoto {
    /// A `width` × `height` picture in `format`, darker on the left than on the right, with
    /// Gaussian `noise` (about 40 makes a 4,000 × 3,000 JPEG weigh as much as a phone photo).
    public static func make(width: Int, height: Int, format: ServedFormat, noise: Double = 0) -> [UInt8]? {
        var output = photo_codec_output()
        guard photo_codec_sample(Int32(width), Int32(height), noise, format.suffix, 90, &output) == 0 else { return nil }
        defer { photo_codec_free(output.data) }
        return [UInt8](UnsafeRawBufferPointer(start: output.data, count: output.length))
    }
}
