import Foundation
import Hummingbird

/// A folder of files the gateway serves as they are (the docs page, the web app), read from
/// disk at each request, as nginx does, so that an edited page shows on the next reload.
struct StaticFiles: Sendable {
    /// The folder, or nil when none was found (every file is then missing).
    let root: URL?
    /// Names never served from the folder (the gateway answers them itself).
    let skipped: Set<String>

    /// The first of `candidates` that holds `index.html`; none when no candidate does.
    static func find(firstOf candidates: [URL], skipping skipped: Set<String> = []) -> StaticFiles {
        let root = candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("index.html").path) }
        return StaticFiles(root: root?.standardizedFileURL, skipped: skipped)
    }

    /// The checkout's `deploy/<folder>` beside `executables` (`.build/debug`, two levels
    /// below it), or in the working directory.
    static func deployFolder(_ folder: String, near executables: URL) -> [URL] {
        [
            executables.appendingPathComponent("../../deploy/\(folder)"),
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("deploy/\(folder)"),
        ]
    }

    /// The bytes of the file at the relative path `name`, or nil when there is no such file
    /// of a type the gateway serves, or the name leaves the folder.
    func contents(of name: String) -> Data? {
        guard let root, !skipped.contains(name), Self.contentType(of: name) != nil,
            !name.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0.isEmpty || $0.hasPrefix(".") })
        else { return nil }
        let file = root.appendingPathComponent(name).standardizedFileURL
        guard file.path.hasPrefix(root.path + "/") else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory), !isDirectory.boolValue else { return nil }
        return try? Data(contentsOf: file)
    }

    /// A 200 with the file at `name` and `headers`, or nil when there is no such file.
    func response(for name: String, headers extra: HTTPFields = [:]) -> Response? {
        guard let data = contents(of: name), let type = Self.contentType(of: name) else { return nil }
        var headers = extra
        headers[.contentType] = type
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: .init(data: data)))
    }

    /// The media type the gateway serves a file name's extension as, if it serves it at all.
    static func contentType(of name: String) -> String? {
        switch URL(fileURLWithPath: name).pathExtension {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "json": "application/json"
        case "webmanifest": "application/manifest+json"
        case "png": "image/png"
        case "jpg": "image/jpeg"
        case "svg": "image/svg+xml"
        default: nil
        }
    }
}
