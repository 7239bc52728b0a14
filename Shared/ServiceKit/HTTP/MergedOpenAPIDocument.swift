import Foundation

extension OpenAPIDocument {
    /// One service's document under its name, for ``merged(title:description:services:)``.
    public struct Part: Sendable {
        public var service: String
        public var document: OpenAPIDocument

        public init(service: String, document: OpenAPIDocument) {
            self.service = service
            self.document = document
        }
    }

    /// What the gateway serves at `/openapi.json`: every service's operations in one
    /// document, each tagged with its service. The per-service routes that the gateway does
    /// not pass on (`/health/…`, `/metrics`, `/openapi.json`) are left out: they are read on
    /// each service's own port.
    ///
    /// - Throws: ``Conflict`` when two services document the same method on the same path,
    ///   which the gateway could route to only one of them, or name two different schemas alike.
    public static func merged(title: String, description: String, services: [Part]) throws -> Data {
        var paths: [String: [String: Any]] = [:]
        for part in services {
            for (path, item) in part.document.pathItems(of: part.document.operations, tag: part.service).sorted(by: { $0.key < $1.key }) {
                for (method, operation) in item.sorted(by: { $0.key < $1.key }) {
                    if paths[path]?[method] != nil { throw Conflict(route: "\(method.uppercased()) \(path)") }
                    paths[path, default: [:]][method] = operation
                }
            }
        }
        var schemas: [String: Any] = [:]
        for part in services {
            for (name, schema) in part.document.sharedSchemas() {
                if let known = schemas[name], !NSDictionary(dictionary: ["s": known]).isEqual(to: ["s": schema]) {
                    throw Conflict(route: "schema \(name)")
                }
                schemas[name] = schema
            }
        }
        let tags = services.map { ["name": $0.service, "description": $0.document.title] as [String: Any] }
        return try serialize(title: title, description: description, tags: tags, paths: paths, schemas: schemas)
    }

    /// Two services document the same route, or give one schema name two meanings.
    public struct Conflict: Error, Equatable, CustomStringConvertible {
        public let route: String
        public var description: String { "two services document \(route)" }
    }
}
