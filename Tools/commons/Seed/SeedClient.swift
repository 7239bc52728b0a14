import AsyncHTTPClient
import CommonsAPI
import Foundation
import NIOCore
import NIOHTTP1
import ServiceKit

/// The public HTTP API as the seed uses it: JSON in and out, through the gateway.
struct SeedClient: Sendable {
    /// The gateway's base URL, e.g. `http://127.0.0.1:8080`.
    let gateway: String
    let client: HTTPClient

    init(gateway: String, client: HTTPClient) {
        self.gateway = gateway.hasSuffix("/") ? String(gateway.dropLast()) : gateway
        self.client = client
    }

    /// What the API answered.
    struct Answer: Sendable {
        let status: Int
        let body: Data
        /// The log position the answer reflects (`Commons-Position`), to send on as `Commons-Min-Position`.
        var position: String? = nil
        /// The seconds `Retry-After` asks for, when it does.
        var retryAfter: Int? = nil

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try ServiceJSON.decoder.decode(type, from: body)
        }

        /// The `id` of what was answered, lower-cased: for the next request's path.
        func id() throws -> String {
            try decode(Identified.self).id.lowercased()
        }

        /// The ids of a page's items, lower-cased.
        func itemIds() throws -> [String] {
            try decode(Items<Identified>.self).items.map { $0.id.lowercased() }
        }

        /// Whatever the API answers with an `id`, read for that alone.
        private struct Identified: Codable, Sendable { var id: String }

        /// The `detail` of a problem document, else the start of the body: for error messages.
        var detail: String {
            struct ProblemDetail: Decodable { var detail: String }
            if let problem = try? decode(ProblemDetail.self) { return problem.detail }
            return String(decoding: body.prefix(300), as: UTF8.self)
        }
    }

    /// `POST path` with `body` as JSON, as the holder of `token` if one is given.
    func post(
        _ path: String, _ body: some Encodable, token: String? = nil, idempotencyKey: String? = nil,
        headers: [String: String] = [:]
    ) async throws -> Answer {
        var headers = headers
        if let idempotencyKey { headers["Idempotency-Key"] = idempotencyKey }
        return try await send(.POST, path, body, token: token, headers: headers)
    }

    /// `PUT path` with `body` as JSON, as the holder of `token`.
    func put(_ path: String, _ body: some Encodable, token: String) async throws -> Answer {
        try await send(.PUT, path, body, token: token)
    }

    /// `PATCH path` with `body` as JSON, as the holder of `token`, with `headers` besides.
    func patch(_ path: String, _ body: some Encodable, token: String, headers: [String: String] = [:]) async throws -> Answer {
        try await send(.PATCH, path, body, token: token, headers: headers)
    }

    private func send(
        _ method: HTTPMethod, _ path: String, _ body: some Encodable, token: String?, headers: [String: String] = [:]
    ) async throws -> Answer {
        var request = HTTPClientRequest(url: gateway + path)
        request.method = method
        request.headers.add(name: "Content-Type", value: "application/json")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: try ServiceJSON.encoder.encode(body)))
        return try await send(request, token: token)
    }

    /// `GET path`, as the holder of `token` if one is given, with `headers` besides.
    func get(_ path: String, token: String? = nil, headers: [String: String] = [:]) async throws -> Answer {
        var request = HTTPClientRequest(url: gateway + path)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        return try await send(request, token: token)
    }

    private func send(_ request: HTTPClientRequest, token: String?) async throws -> Answer {
        var request = request
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "User-Agent", value: "commons seed")
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        do {
            let response = try await client.execute(request, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 1 << 20)
            return Answer(
                status: Int(response.status.code), body: Data(body.readableBytesView), position: response.headers.first(name: "Commons-Position"))
        } catch {
            throw CommandFailure("cannot reach \(gateway) (is `commons up` running?): \(error)")
        }
    }
}
