import Foundation
import HTTPTypes
import Hummingbird
import ServiceKit
import StackKit

/// The web app (`deploy/web`, the same files nginx serves at `/`, read at each request): `index.html` at `/` and
/// its scripts, styles and pictures under their own paths, with ``WebAppHeaders``. A path
/// that is neither the API's nor one of these files is left to the routes (a 404 problem).
struct GatewayWebApp: Sendable {
    let site: StaticFiles

    /// The app's files from the `deploy/web` of the checkout that `executables` was built
    /// in, or of the working directory; none (and `/` a 404) when there is no such folder.
    static func load(near executables: URL) -> GatewayWebApp {
        GatewayWebApp(site: StaticFiles.find(firstOf: StaticFiles.deployFolder("web", near: executables)))
    }

    /// The answer to a path of the app, or nil when `path` is not one of its files.
    func response(to method: HTTPRequest.Method, path: String) throws -> Response? {
        let name = path == "/" ? "index.html" : String(path.dropFirst())
        var headers = HTTPFields()
        for header in WebAppHeaders.all { headers[HTTPField.Name(header.name)!] = header.value }
        guard let page = site.response(for: name, headers: headers) else { return nil }
        guard method == .get || method == .head else { throw Problem.methodNotAllowed(allowed: ["GET", "HEAD"]) }
        return page
    }
}
