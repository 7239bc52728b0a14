import Foundation
import PhotoCodec
import Spawn

/// Real photo tools from Debian (`libimage-exiftool-perl`, `libheif-examples`), so that the
/// metadata under test is written, and looked for, by software that is not ours.
public enum PhotoTools {
    /// A scratch directory for one test.
    public static func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("photos-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Runs `tool` and returns its standard output; throws with its error output when it fails.
    @discardableResult
    public static func run(_ tool: String, _ arguments: [String]) async throws -> String {
        let result = try await SpawnedProcess.output(of: tool, arguments)
        guard result.status == .exited(0) else { throw ToolFailure(description: "\(tool) \(arguments.joined(separator: " ")): \(result.stderr)") }
        return result.stdout
    }

    /// Writes a GPS position, an Exif artist, an XMP creator and (where the format has it) an
    /// IPTC keyword into the file at `path`, each carrying `marker`.
    public static func addPersonalMetadata(to path: String, marker: String, iptc: Bool = true) async throws {
        var arguments = [
            "-q", "-overwrite_original", "-GPSLatitude=52.3731", "-GPSLatitudeRef=N", "-GPSLongitude=4.8922",
            "-GPSLongitudeRef=E", "-EXIF:Artist=\(marker)", "-XMP-dc:Creator=\(marker)",
        ]
        if iptc { arguments.append("-IPTC:Keywords=\(marker)") }
        try await run("/usr/bin/exiftool", arguments + [path])
    }

    /// Every tag exiftool finds, one `[Group] Name: value` a line.
    public static func tags(of path: String) async throws -> String {
        try await run("/usr/bin/exiftool", ["-G", "-a", "-s", path])
    }

    /// A JPEG of `width` × `height` that says where it was taken (GPS, and `marker` in its
    /// Exif, XMP and IPTC), as a phone would upload it.
    public static func jpegWithPosition(width: Int, height: Int, noise: Double = 0, marker: String) async throws -> [UInt8] {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("photo.jpg").path
        guard let bytes = SamplePhoto.make(width: width, height: height, format: .jpeg, noise: noise) else {
            throw ToolFailure(description: "libvips made no sample picture")
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try await addPersonalMetadata(to: path, marker: marker)
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// A HEIC file encoded by libheif from the PNG at `png`.
    public static func heic(from png: String, to path: String) async throws {
        try await run("/usr/bin/heif-enc", ["-q", "80", "-o", path, png])
    }
}

public struct ToolFailure: Error, CustomStringConvertible {
    public let description: String
}
