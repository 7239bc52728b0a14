import Foundation
import HTTPTypes
import Hummingbird
import ServiceKit

/// What `commons up`'s gateway serves of the API's documentation: the merged document at
/// `/openapi.json` and the page at `/docs/` (`deploy/docs`, the same files nginx serves).
struct GatewayDocs: Sendable {
    /// ``CommonsAPI/document()``.
    let document: Data
    /// The page's files (`index.html`, `docs.js`, …); none when the checkout's `deploy/docs`
    /// was not found, and `/docs/` then answers 404 saying so.
    let site: StaticFiles

    /// The page's files, from the `deploy/docs` of the checkout that `executables` was
    /// built in, or of the working directory.
    static func load(near executables: URL) throws -> GatewayDocs {
        GatewayDocs(
            document: try CommonsAPI.document(),
            site: StaticFiles.find(firstOf: StaticFiles.deployFolder("docs", near: executables), skipping: ["openapi.json"]))
    }

    /// The answer to a documentation path, or nil when `path` is not one.
    func response(to method: HTTPRequest.Method, path: String) throws -> Response? {
        guard path == "/openapi.json" || path == "/docs" || path.hasPrefix("/docs/") else { return nil }
        guard method == .get || method == .head else { throw Problem.methodNotAllowed(allowed: ["GET", "HEAD"]) }
        if path == "/openapi.json" {
            return Response(
                status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-cache"], body: .init(byteBuffer: .init(data: document)))
        }
        // The page's links are relative to /docs/.
        if path == "/docs" { return Response(status: .movedPermanently, headers: [.location: "/docs/"]) }
        let name = path == "/docs/" ? "index.html" : String(path.dropFirst("/docs/".count))
        guard let page = site.response(for: name) else {
            throw Problem.notFound(
                site.root == nil
                    ? "The docs page is served from a checkout's deploy/docs, and none was found beside this commons."
                    : "The docs page has no \(name).")
        }
        return page
    }
}
