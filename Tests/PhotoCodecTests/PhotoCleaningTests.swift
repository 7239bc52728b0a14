import Foundation
import PhotoCodec
import PhotoTestSupport
import Testing

@Suite("photo cleaning, checked with exiftool")
struct PhotoCleaningTests {
    /// The groups of tags that can say who took a photo, and where.
    static let personalGroups = ["[XMP", "[IPTC]", "[GPS]", "[MakerNotes]", "[ICC_Profile]"]
    /// The only Exif tags a served photo may carry: libvips 8.14's WebP saver writes a fresh
    /// Exif block of these (no camera, time, place or person) even when told to strip.
    static let harmlessExif: Set<String> = [
        "Orientation", "XResolution", "YResolution", "ResolutionUnit", "YCbCrPositioning", "ExifVersion", "ComponentsConfiguration",
        "FlashpixVersion", "ColorSpace", "ExifImageWidth", "ExifImageHeight",
    ]

    /// The names of the Exif tags in exiftool's `-G -s` listing.
    static func exifTags(in listing: String) -> Set<String> {
        Set(
            listing.split(separator: "\n").filter { $0.hasPrefix("[EXIF]") }.compactMap {
                $0.dropFirst("[EXIF]".count).split(separator: ":").first?.trimmingCharacters(in: .whitespaces)
            })
    }

    @Test("no GPS, camera Exif, XMP or IPTC survives in any size served", arguments: PhotoFormat.allCases)
    func metadataIsGone(format: PhotoFormat) async throws {
        let directory = try PhotoTools.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let marker = "Marker\(UUID().uuidString.prefix(8))"
        let upload = directory.appendingPathComponent("upload.\(format.rawValue)").path
        switch format {
        case .heif:
            let png = directory.appendingPathComponent("source.png").path
            try Data(try #require(SamplePhoto.make(width: 800, height: 600, format: .png, noise: 10))).write(to: URL(fileURLWithPath: png))
            try await PhotoTools.heic(from: png, to: upload)
        default:
            let bytes = try #require(SamplePhoto.make(width: 800, height: 600, format: format.served, noise: 10))
            try Data(bytes).write(to: URL(fileURLWithPath: upload))
        }
        // IPTC lives in JPEG only; exiftool refuses to write it elsewhere.
        try await PhotoTools.addPersonalMetadata(to: upload, marker: marker, iptc: format == .jpeg)
        let before = try await PhotoTools.tags(of: upload)
        #expect(before.contains("GPSLatitude"), "exiftool wrote the position: \(before)")
        #expect(before.contains(marker))

        let cleaned = try PhotoCleaner.clean([UInt8](try Data(contentsOf: URL(fileURLWithPath: upload))))
        #expect(cleaned.source == format)
        for size in PhotoSize.allCases {
            let photo = try #require(cleaned.sizes[size])
            #expect(photo.format == format.served)
            let served = directory.appendingPathComponent("\(size.rawValue).\(photo.format.rawValue)").path
            try Data(photo.bytes).write(to: URL(fileURLWithPath: served))
            let tags = try await PhotoTools.tags(of: served)
            #expect(!tags.contains("GPS"), "\(size) of \(format) still has GPS:\n\(tags)")
            #expect(!tags.contains(marker), "\(size) of \(format) still names the marker:\n\(tags)")
            let exif = Self.exifTags(in: tags)
            #expect(exif.isSubset(of: Self.harmlessExif), "\(size) of \(format) keeps Exif \(exif.subtracting(Self.harmlessExif))")
            for group in Self.personalGroups {
                #expect(!tags.contains(group), "\(size) of \(format) still has \(group):\n\(tags)")
            }
            #expect(!String(decoding: photo.bytes, as: UTF8.self).contains(marker))
        }
    }

    @Test("a photo taken sideways comes back upright, without its orientation tag")
    func orientationIsApplied() async throws {
        let directory = try PhotoTools.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let upload = directory.appendingPathComponent("sideways.jpg").path
        try Data(try #require(SamplePhoto.make(width: 640, height: 320, format: .jpeg))).write(to: URL(fileURLWithPath: upload))
        // 6: the sensor's picture must be turned 90° clockwise to be seen upright.
        try await PhotoTools.run("/usr/bin/exiftool", ["-q", "-overwrite_original", "-Orientation=6", "-n", upload])
        #expect(try await PhotoTools.tags(of: upload).contains("Orientation"))

        let cleaned = try PhotoCleaner.clean([UInt8](try Data(contentsOf: URL(fileURLWithPath: upload))))
        #expect(cleaned.original.width == 320 && cleaned.original.height == 640)
        let small = try #require(cleaned.sizes[.small])
        #expect(small.width == 160 && small.height == 320)
        let served = directory.appendingPathComponent("served.jpg").path
        try Data(cleaned.original.bytes).write(to: URL(fileURLWithPath: served))
        #expect(!(try await PhotoTools.tags(of: served)).contains("Orientation"))
    }
}
