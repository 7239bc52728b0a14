import Foundation
import ListingsDomain
import Testing

/// Real image headers built byte by byte.
enum SampleImages {
    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// A JPEG with JFIF, an Exif block holding a GPS position, an XMP block, a quantisation
    /// table, and a scan.
    static let jpegWithGPS: [UInt8] = [0xFF, 0xD8]
        + segment(0xE0, Array("JFIF\0".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0])
        + segment(0xE1, Array("Exif\0\0".utf8) + Array("MM\0*GPSLatitude 52.3731 GPSLongitude 4.8922".utf8))
        + segment(0xE1, Array("http://ns.adobe.com/xap/1.0/\0<exif:GPSLatitude>52,22N</exif:GPSLatitude>".utf8))
        + segment(0xDB, [0] + Array(repeating: 1, count: 64))
        + segment(0xDA, [1, 1, 0, 0, 63, 0]) + [0x12, 0x34, 0xFF, 0x00, 0x56] + [0xFF, 0xD9]

    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]
    static let webp: [UInt8] = Array("RIFF".utf8) + [26, 0, 0, 0] + Array("WEBPVP8L".utf8) + Array(repeating: 0, count: 14)
    static let heic: [UInt8] = [0, 0, 0, 24] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)
    static let heicCompatibleOnly: [UInt8] = [0, 0, 0, 24] + Array("ftypabcd".utf8) + [0, 0, 0, 0] + Array("isommif1".utf8)
    static let mp4: [UInt8] = [0, 0, 0, 20] + Array("ftypisom".utf8) + [0, 0, 0, 0] + Array("mp41".utf8)
    static let gif: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0]
}

@Suite("image bytes")
struct ImageBytesTests {
    @Test("formats are told from the bytes")
    func detection() {
        #expect(ImageFormat.detect(SampleImages.jpegWithGPS) == .jpeg)
        #expect(ImageFormat.detect(SampleImages.png) == .png)
        #expect(ImageFormat.detect(SampleImages.webp) == .webp)
        #expect(ImageFormat.detect(SampleImages.heic) == .heic)
        #expect(ImageFormat.detect(SampleImages.heicCompatibleOnly) == .heic)
        #expect(ImageFormat.detect(SampleImages.mp4) == nil)
        #expect(ImageFormat.detect(SampleImages.gif) == nil)
        #expect(ImageFormat.detect(Array("%PDF-1.7".utf8)) == nil)
        #expect(ImageFormat.detect([]) == nil)
    }

    @Test("Exif and XMP (with GPS) leave a JPEG; everything else stays byte for byte")
    func stripping() throws {
        let stripped = try #require(JPEGMetadataStripper.strip(SampleImages.jpegWithGPS))
        let text = String(decoding: stripped, as: UTF8.self)
        #expect(!text.contains("GPS") && !text.contains("Exif"))
        let expected: [UInt8] = [0xFF, 0xD8]
            + SampleImages.segment(0xE0, Array("JFIF\0".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0])
            + SampleImages.segment(0xDB, [0] + Array(repeating: 1, count: 64))
            + SampleImages.segment(0xDA, [1, 1, 0, 0, 63, 0]) + [0x12, 0x34, 0xFF, 0x00, 0x56] + [0xFF, 0xD9]
        #expect(stripped == expected)
        #expect(JPEGMetadataStripper.strip(stripped) == stripped)
    }

    @Test("a truncated JPEG is refused; other formats pass untouched")
    func refusals() throws {
        #expect(throws: ImageUpload.Refusal.malformedJPEG) { try ImageUpload.prepare(Array(SampleImages.jpegWithGPS.prefix(30))) }
        #expect(throws: ImageUpload.Refusal.unsupportedFormat) { try ImageUpload.prepare(SampleImages.gif) }
        #expect(try ImageUpload.prepare(SampleImages.png) == ImageUpload(format: .png, bytes: SampleImages.png))
    }

    @Test("the file part of a multipart body")
    func multipart() throws {
        let boundary = "----commons42"
        let body = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\nmy chair\r\n".utf8)
            + Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.png\"\r\nContent-Type: image/png\r\n\r\n".utf8)
            + SampleImages.png + Array("\r\n--\(boundary)--\r\n".utf8)
        #expect(MultipartBody.boundary(of: "multipart/form-data; boundary=\"\(boundary)\"") == boundary)
        #expect(MultipartBody.firstFilePart(of: body, boundary: boundary) == SampleImages.png)
        #expect(MultipartBody.firstFilePart(of: Array(body.prefix(40)), boundary: boundary) == nil)
    }
}
