import Foundation
import HTTPTypes
import ServiceKit

/// A service's answer as the service test harnesses see it, with the few views the tests read.
public struct TestReply: Sendable {
    public let status: HTTPResponse.Status
    public let headers: HTTPFields
    public let body: Data

    public init(status: HTTPResponse.Status, headers: HTTPFields = HTTPFields(), body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public var text: String { String(decoding: body, as: UTF8.self) }
    public var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    /// `items` of a page.
    public var items: [[String: Any]] { json["items"] as? [[String: Any]] ?? [] }
    /// `errors` of a problem document, by field.
    public var errors: [String: Any] { json["errors"] as? [String: Any] ?? [:] }
    /// The fields a problem document names.
    public var fieldErrors: Set<String> { Set(errors.keys) }
    public var position: String? { headers[.commonsPosition] }
    public var etag: String? { headers[.eTag] }

    /// The body decoded as `type`, dates in ISO 8601.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(T.self, from: body)
    }
}

/// A test step that could not go on, with a line saying why.
public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension UUID {
    /// The lower-case text used in stream names and read-model keys.
    public var key: String { uuidString.lowercased() }
}
