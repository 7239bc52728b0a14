import Foundation
import HTTPTypes
import Hummingbird
import ServiceKit

/// What `commons up`'s gateway serves of the API's documentation: the merged document at
/// `/openapi.json` and the page at `/docs/` (`deploy/docs`, the same files nginx serves).
struct GatewayDocs: Sendable {
    /// ``CommonsAPI/document()``.
    let document: Data
    /// The page's files by name (`index.html`, `docs.js`, …); empty when the checkout's
    /// `deploy/docs` was not found, and `/docs/` then answers 404 saying so.
    let site: [String: Data]

    /// The page's files, from the `deploy/docs` of the checkout that `executables` was
    /// built in (`.build/debug`, two levels below it), or of the working directory.
    static func load(near executables: URL) throws -> GatewayDocs {
        let candidates = [executables.appendingPathComponent("../../deploy/docs"),
                          URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("deploy/docs")]
        var site: [String: Data] = [:]
        if let directory = candidates.first(where: { FileManager.default.fileExists(atPath: $0.appendingPathComponent("index.html").path) }) {
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name != "openapi.json" && contentType(of: name) != nil {
                site[name] = try Data(contentsOf: directory.appendingPathComponent(name))
            }
        }
        return GatewayDocs(document: try CommonsAPI.document(), site: site)
    }

    /// The answer to a documentation path, or nil when `path` is not one.
    func response(to method: HTTPRequest.Method, path: String) throws -> Response? {
        guard path == "/openapi.json" || path == "/docs" || path.hasPrefix("/docs/") else { return nil }
        guard method == .get || method == .head else { throw Problem.methodNotAllowed(allowed: ["GET", "HEAD"]) }
        if path == "/openapi.json" { return Self.file(document, type: "application/json") }
        // The page's links are relative to /docs/.
        if path == "/docs" { return Response(status: .movedPermanently, headers: [.location: "/docs/"]) }
        let name = path == "/docs/" ? "index.html" : String(path.dropFirst("/docs/".count))
        guard let data = site[name], let type = Self.contentType(of: name) else {
            throw Problem.notFound(site.isEmpty
                ? "The docs page is served from a checkout's deploy/docs, and none was found beside this commons."
                : "The docs page has no \(name).")
        }
        return Self.file(data, type: type)
    }

    private static func file(_ data: Data, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type, .cacheControl: "no-cache"], body: .init(byteBuffer: .init(data: data)))
    }

    private static func contentType(of name: String) -> String? {
        switch URL(fileURLWithPath: name).pathExtension {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "json": "application/json"
        case "png": "image/png"
        default: nil
        }
    }
}
