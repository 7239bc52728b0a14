import AsyncHTTPClient
import Foundation
import NIOCore

/// Asks every running service whether it is ready (`GET /health/ready` answers 200).
struct StackReadiness: Sendable {
    /// The services that run, by name, with their base URLs.
    let services: [(name: String, url: String)]
    let client: HTTPClient

    /// How long one service may take to answer before it counts as not ready.
    static let patience = TimeAmount.seconds(2)

    /// The names of the services that are not ready now, in the order of `services`.
    func notReady() async -> [String] {
        let ready = await withTaskGroup(of: (String, Bool).self) { group in
            for service in services {
                group.addTask { (service.name, await isReady(service.url)) }
            }
            return await group.reduce(into: [String: Bool]()) { $0[$1.0] = $1.1 }
        }
        return services.map(\.name).filter { ready[$0] != true }
    }

    private func isReady(_ url: String) async -> Bool {
        do {
            let response = try await client.execute(HTTPClientRequest(url: url + "/health/ready"), timeout: Self.patience)
            _ = try? await response.body.collect(upTo: 64 * 1024)
            return response.status == .ok
        } catch {
            return false
        }
    }
}
