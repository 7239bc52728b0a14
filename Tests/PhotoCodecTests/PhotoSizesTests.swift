import Foundation
import PhotoCodec
import Testing

@Suite("photo sizes and refusals")
struct PhotoSizesTests {
    @Test("a large photo gets a small and a medium size on its long edge, keeping its shape")
    func variants() throws {
        let cleaned = try PhotoCleaner.clean(try #require(SamplePhoto.make(width: 2000, height: 1500, format: .jpeg)))
        #expect(cleaned.original.width == 2000 && cleaned.original.height == 1500)
        let small = try #require(cleaned.sizes[.small]), medium = try #require(cleaned.sizes[.medium])
        #expect(small.width == 320 && small.height == 240)
        #expect(medium.width == 1024 && medium.height == 768)
        #expect(small.bytes.count < medium.bytes.count && medium.bytes.count < cleaned.original.bytes.count)
    }

    @Test("a photo smaller than a size is never enlarged")
    func neverEnlarged() throws {
        let cleaned = try PhotoCleaner.clean(try #require(SamplePhoto.make(width: 200, height: 120, format: .png)))
        for size in PhotoSize.allCases {
            let photo = try #require(cleaned.sizes[size])
            #expect(photo.width == 200 && photo.height == 120, "\(size)")
        }
    }

    @Test("cleaning is repeatable: the same upload gives the same bytes")
    func deterministic() throws {
        let upload = try #require(SamplePhoto.make(width: 900, height: 700, format: .webp, noise: 20))
        let first = try PhotoCleaner.clean(upload), second = try PhotoCleaner.clean(upload)
        for size in PhotoSize.allCases { #expect(first.sizes[size] == second.sizes[size]) }
    }

    @Test("formats other than JPEG, PNG, WebP and HEIF are refused as unsupported")
    func unsupported() throws {
        let gif: [UInt8] =
            Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0, 0x3B]
        let svg = Array(#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>"#.utf8)
        for bytes in [gif, svg, Array("%PDF-1.7\n".utf8), Array("hello".utf8), []] {
            #expect(PhotoCleaner.format(of: bytes) == nil)
            #expect {
                try PhotoCleaner.clean(bytes)
            } throws: { error in
                if case .unsupportedFormat = error as? PhotoRefusal { return true }
                return false
            }
        }
    }

    @Test("a truncated or damaged photo is refused as undecodable", arguments: [ServedFormat.jpeg, .png, .webp])
    func undecodable(format: ServedFormat) throws {
        let whole = try #require(SamplePhoto.make(width: 600, height: 400, format: format, noise: 30))
        let truncated = Array(whole.prefix(whole.count / 2))
        // The structure just after each signature: JPEG's first segment length and tables,
        // PNG's IHDR and its checksum, WebP's VP8 chunk header.
        var damaged = whole
        let start =
            switch format {
            case .jpeg: 4;
            case .png: 16;
            case .webp: 12
            }
        for index in start..<80 { damaged[index] = 0x5A }
        for (name, bytes) in [("truncated", truncated), ("damaged", damaged)] {
            let outcome = Result { try PhotoCleaner.clean(bytes) }
            guard case .failure(let error) = outcome, case .undecodable = error as? PhotoRefusal else {
                Issue.record("the \(name) \(format) was not refused as undecodable: \((try? outcome.get()).map { _ in "cleaned" } ?? "\(outcome)")")
                continue
            }
        }
    }

    @Test("a picture announcing more than the pixel limit is refused before it is decoded")
    func decompressionBomb() throws {
        var png = try #require(SamplePhoto.make(width: 16, height: 16, format: .png))
        // IHDR starts at byte 8: length, "IHDR", width, height, …, then its CRC at 29.
        let side = UInt32(60_000)
        for (offset, value) in [(16, side), (20, side)] {
            for byte in 0..<4 { png[offset + byte] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(byte))) }
        }
        let crc = CRC32.checksum(png[12..<29])
        for byte in 0..<4 { png[29 + byte] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32(byte))) }
        #expect(throws: PhotoRefusal.tooManyPixels) { try PhotoCleaner.clean(png) }
    }

    @Test("a cancelled cleaning stops with .cancelled and leaves libvips' error buffer empty; the same picture then cleans")
    func cancelled() throws {
        let photo = try #require(SamplePhoto.make(width: 400, height: 300, format: .png))
        let cancellation = PhotoCancellation()
        cancellation.cancel()
        #expect(throws: PhotoRefusal.cancelled) { try PhotoCleaner.clean(photo, cancellation: cancellation) }
        #expect(try PhotoCleaner.clean(photo, cancellation: PhotoCancellation()).sizes.count == PhotoSize.allCases.count)
    }

    @Test("a picture larger once cleaned than the bound is refused; at the bound it is kept")
    func cleanedSizeBound() throws {
        let photo = try #require(SamplePhoto.make(width: 400, height: 300, format: .png))
        let cleaned = try PhotoCleaner.clean(photo)
        let largest = try #require(cleaned.sizes.values.map(\.bytes.count).max())
        #expect(throws: PhotoRefusal.tooLargeCleaned) { try PhotoCleaner.clean(photo, maximumCleanedBytes: largest - 1) }
        #expect(try PhotoCleaner.clean(photo, maximumCleanedBytes: largest).sizes.count == cleaned.sizes.count)
    }
}

/// PNG's chunk checksum, to forge a header in a test.
enum CRC32 {
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
