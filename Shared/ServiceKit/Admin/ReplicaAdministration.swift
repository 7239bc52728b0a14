import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1

/// The operator console's view of every replica of a service behind a gateway, which reaches
/// one replica a request: the one that answers asks each of its peers (`COMMONS_PEERS`) with
/// the replica credential, and answers for all of them.
///
/// - `GET /v1/admin/<service>/replicas`: each replica's address and its projections (as
///   `/projections` answers them), or why it did not answer.
/// - `POST /v1/admin/<service>/replicas/replay[?address=]`: starts a replay on every replica,
///   or on the one at `address`; each one's answer (202 started, 409 running already).
enum ReplicaAdministration {
    /// The administrator a replica acts for when it asks a peer.
    static let onBehalfOf = HTTPField.Name("Commons-On-Behalf-Of")!
    /// How long a peer may take to answer.
    static let patience = TimeAmount.seconds(5)

    static func addRoutes(to router: Router<AppRequestContext>, service: String, runtime: ServiceRuntime, replay: ReadModelReplay) {
        let base = "/v1/admin/\(service)"

        router.get("\(base)/replicas") { _, context in
            let admin = try context.requireAdmin()
            let peers = await ReplicaPeers.addresses(runtime.configuration.peers)
            var replicas: [[String: Any]] = []
            if peers.isEmpty {
                let local = try ResponseJSON.encode(try await ProjectionAdministration.view(service: service, runtime: runtime, replay: replay))
                replicas = [["address": "", "projections": try JSONSerialization.jsonObject(with: Data(local))]]
            } else {
                replicas = await each(peers) { peer in
                    let (status, body) = try await ask(peer, .GET, "\(base)/projections", runtime: runtime, for: admin)
                    guard status == 200, let view = try? JSONSerialization.jsonObject(with: body) else {
                        return ["address": peer.absoluteString, "error": "answered \(status)"]
                    }
                    return ["address": peer.absoluteString, "projections": view]
                }
            }
            return Response.json(encoded: Array(try JSONSerialization.data(withJSONObject: ["service": service, "replicas": replicas])))
        }

        router.post("\(base)/replicas/replay") { request, context in
            let admin = try context.requireAdmin()
            let peers = await ReplicaPeers.addresses(runtime.configuration.peers)
            let address = request.uri.queryParameters.get("address")
            if peers.isEmpty {
                guard address == nil || address == "" else { throw Problem.notFound("No replica of \(service) is at \(address ?? "").") }
                let started = replay.start()
                if started { runtime.logger.notice("read model replay started", metadata: ["actorId": "\(admin.accountId)"]) }
                let answer: [String: Any] = ["address": "", "status": started ? 202 : 409]
                return Response.json(encoded: Array(try JSONSerialization.data(withJSONObject: ["replicas": [answer]])), status: .accepted)
            }
            let targets = peers.filter { address == nil || $0.absoluteString == address }
            guard !targets.isEmpty else { throw Problem.notFound("No replica of \(service) is at \(address ?? "").") }
            let answers = await each(targets) { peer in
                let (status, _) = try await ask(peer, .POST, "\(base)/replay", runtime: runtime, for: admin)
                return ["address": peer.absoluteString, "status": status]
            }
            return Response.json(encoded: Array(try JSONSerialization.data(withJSONObject: ["replicas": answers])), status: .accepted)
        }
    }

    /// `body` for each peer at once, in the peers' order; a peer that fails gets its error.
    private static func each(_ peers: [URL], _ body: @escaping @Sendable (URL) async throws -> [String: Any]) async -> [[String: Any]] {
        await withTaskGroup(of: (Int, SendableJSON).self) { group in
            for (index, peer) in peers.enumerated() {
                group.addTask {
                    do {
                        return (index, SendableJSON(value: try await body(peer)))
                    } catch {
                        return (index, SendableJSON(value: ["address": peer.absoluteString, "error": "\(error)"]))
                    }
                }
            }
            var answers = Array(repeating: [String: Any](), count: peers.count)
            for await (index, answer) in group { answers[index] = answer.value }
            return answers
        }
    }

    /// Sends `method path` to `peer` as a replica acting for `admin`; its status and body.
    private static func ask(
        _ peer: URL, _ method: HTTPMethod, _ path: String, runtime: ServiceRuntime, for admin: Identity
    ) async throws -> (UInt, Data) {
        var request = HTTPClientRequest(url: peer.absoluteString.trimmingCharacters(in: ["/"]) + path)
        request.method = method
        request.headers.add(name: ReplicaCredential.header.rawName, value: runtime.replicaCredential.value)
        request.headers.add(name: onBehalfOf.rawName, value: admin.accountId.lowercasedText)
        let response = try await HTTPClient.shared.execute(request, timeout: patience)
        let body = try await response.body.collect(upTo: 1 << 20)
        return (response.status.code, Data(buffer: body))
    }
}

/// A JSON object from `JSONSerialization`, which holds only values that are safe to send.
private struct SendableJSON: @unchecked Sendable {
    let value: [String: Any]
}
