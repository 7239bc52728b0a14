import Codecs
import EventLog
import Foundation
import HTTPTypes
import Hummingbird

extension Response {
    /// A JSON response, with the headers a write carries: `ETag` (the aggregate's
    /// version), `Commons-Position` (the checkpoint of the write) and `Location`.
    public static func json(
        _ value: some Encodable, status: HTTPResponse.Status = .ok, version: Int64? = nil,
        position: Checkpoint? = nil, location: String? = nil
    ) throws -> Response {
        json(encoded: try ResponseJSON.encode(value), status: status, version: version, position: position, location: location)
    }

    /// A JSON response whose body is `encoded` as it is, e.g. an answer kept from before.
    public static func json(
        encoded: [UInt8], status: HTTPResponse.Status = .ok, version: Int64? = nil,
        position: Checkpoint? = nil, location: String? = nil
    ) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        if let version { headers[.eTag] = "\"\(version)\"" }
        if let position { headers[.commonsPosition] = position.description }
        if let location { headers[.location] = location }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: encoded)))
    }

    /// An empty response, e.g. 204 after a delete, with the write's position.
    public static func empty(status: HTTPResponse.Status = .noContent, position: Checkpoint? = nil) -> Response {
        var headers = HTTPFields()
        if let position { headers[.commonsPosition] = position.description }
        return Response(status: status, headers: headers)
    }
}

extension Request {
    /// The version in `If-Match` (`"3"` or `W/"3"`: ``ETagVersion/pattern``); nil when
    /// absent, 400 when it has another form.
    public func ifMatchVersion() throws -> Int64? {
        guard let value = headers[.ifMatch] else { return nil }
        guard let version = ETagVersion.parse(value) else {
            throw Problem.malformed("If-Match must be an ETag this service sent.", errors: ["If-Match": ["is not an ETag"]])
        }
        return version
    }

    /// The `If-Match` version; 428 when absent.
    public func requireIfMatch() throws -> Int64 {
        guard let version = try ifMatchVersion() else { throw Problem.preconditionRequired() }
        return version
    }

    /// A query parameter as text; nil when absent.
    public func query(_ name: String) -> String? { uri.queryParameters[Substring(name)].map(String.init) }
}

extension Parameters {
    /// A path parameter that must be a UUID; 404 otherwise (an id that cannot exist).
    public func uuid(_ name: String) throws -> UUID {
        guard let text = get(name), let id = UUID(uuidString: text) else { throw Problem.notFound() }
        return id
    }
}
