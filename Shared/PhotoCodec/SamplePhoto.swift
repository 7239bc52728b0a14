import CPhotoCodec

/// Made-up pictures for tests, benchmarks and demo data.
public enum SamplePhoto {
    /// A `width` × `height` picture in `format`, in `colour` (red, green, blue), darker on the
    /// left than on the right, with Gaussian `noise` (about 16 makes a 4,000 × 3,000 JPEG
    /// weigh what a phone photo does).
    public static func make(
        width: Int, height: Int, format: ServedFormat, noise: Double = 0,
        colour: (red: UInt8, green: UInt8, blue: UInt8) = (200, 120, 60)
    ) -> [UInt8]? {
        var output = photo_codec_output()
        guard
            photo_codec_sample(
                Int32(width), Int32(height), noise, Int32(colour.red), Int32(colour.green), Int32(colour.blue),
                format.suffix, 90, &output) == 0
        else { return nil }
        defer { photo_codec_free(output.data) }
        return [UInt8](UnsafeRawBufferPointer(start: output.data, count: output.length))
    }
}
