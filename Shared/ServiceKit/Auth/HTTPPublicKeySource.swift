import AsyncHTTPClient
import Foundation
import NIOCore

/// Fetches the JWKS document from the `accounts` service over HTTP.
public struct HTTPPublicKeySource: PublicKeySource {
    public let url: String
    let client: HTTPClient

    public init(accountsURL: String, client: HTTPClient = .shared) {
        url = accountsURL.trimmingSuffix("/") + "/.well-known/jwks.json"
        self.client = client
    }

    public func fetchJWKS() async throws -> String {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "application/json")
        let response = try await client.execute(request, timeout: .seconds(5))
        guard response.status == .ok else { throw PublicKeyFetchError(description: "\(url) answered \(response.status.code)") }
        let body = try await response.body.collect(upTo: 1 << 20)
        return String(buffer: body)
    }
}

struct PublicKeyFetchError: Error, CustomStringConvertible {
    let description: String
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        var text = self
        while text.hasSuffix(suffix) { text.removeLast(suffix.count) }
        return text
    }
}
