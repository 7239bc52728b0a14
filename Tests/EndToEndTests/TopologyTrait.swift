import CommonsClient
import Foundation
import Testing
import TopologyKit

extension Topology {
    /// The topology of the running suite (see ``TopologyTrait``).
    @TaskLocal static var current: Topology?

    /// The running topology; fails when the test runs outside the `.topology` trait.
    static func running() throws -> Topology {
        guard let current else { throw Failure("no topology: the suite needs the .topology trait") }
        return current
    }
}

/// Starts the topology once for the suite it is applied to, runs the suite's tests with it
/// (``Topology/current``), and stops it afterwards, whatever happened. A topology that cannot
/// start fails the suite with the reason; it never skips it.
struct TopologyTrait: SuiteTrait, TestScoping {
    /// How many processes each service runs (above 1 needs nginx).
    var replicas = 1
    /// Whether the topology runs on a PostgreSQL of its own, which its tests may stop.
    var ownPostgres = false
    var isRecursive: Bool { false }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let topology = try await Topology.start(replicas: replicas, ownPostgres: ownPostgres)
        do {
            try await Topology.$current.withValue(topology) { try await function() }
        } catch {
            await topology.stop()
            throw error
        }
        await topology.stop()
    }
}

extension Trait where Self == TopologyTrait {
    /// The whole system, started from this process's build (see ``Topology``).
    static var topology: Self { Self() }

    /// The whole system with `replicas` processes of every service behind nginx; with
    /// `ownPostgres`, on a PostgreSQL cluster of its own that its tests may stop and start.
    static func topology(replicas: Int, ownPostgres: Bool = false) -> Self { Self(replicas: replicas, ownPostgres: ownPostgres) }
}

/// What the flows share: clients on the gateway, people, places and waiting.
enum E2E {
    /// A new client, as a new app install would have.
    static func app(_ topology: Topology, device: String = "end-to-end") -> CommonsClient {
        CommonsClient(baseURL: topology.gatewayURL, userAgent: device)
    }

    static let password = "correct horse battery staple"

    /// A unique marker, so that tests find their own data in a shared log.
    static func marker(_ prefix: String) -> String { "\(prefix)\(UUID().uuidString.prefix(8).lowercased())" }

    /// A registered, signed-in account.
    static func person(_ topology: Topology, _ name: String, email: String? = nil) async throws -> (CommonsClient, Tokens, String) {
        let app = app(topology, device: "\(name)'s phone")
        let address = email ?? "\(marker(name.lowercased()))@e2e.commons.test"
        let tokens = try await app.accounts.register(email: address, password: password, displayName: name)
        return (app, tokens, address)
    }

    /// The topology's admin (made by `commons accounts create-admin`), signed in on a new app.
    static func admin(_ topology: Topology) async throws -> CommonsClient {
        let app = app(topology, device: "admin console")
        try await app.accounts.signIn(email: topology.adminEmail, password: topology.adminPassword)
        return app
    }

    /// A random place on land-free open sea far from any other test's data, so that a nearby
    /// search finds only what this test posted.
    static func place() -> Coordinate {
        Coordinate(lat: Double.random(in: -40...40), lon: Double.random(in: -170...170))
    }

    /// A tiny real PNG (1×1, one grey pixel): a photo for listings.
    static let photo = Data([
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x00, 0x00, 0x00, 0x00, 0x3A, 0x7E, 0x9B,
        0x55, 0x00, 0x00, 0x00, 0x0A, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x68, 0x00, 0x00, 0x00,
        0x82, 0x00, 0x81, 0x77, 0xCD, 0x72, 0xB6, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE,
        0x42, 0x60, 0x82,
    ])

    /// Hands `from`'s write position to `to`, as a push notification or a shared link would:
    /// `to`'s next reads then see `from`'s writes on every service.
    static func carryPosition(from: CommonsClient, to: CommonsClient) {
        if let position = from.positions.current { to.positions.observe(position) }
    }

    /// Replays `service`'s read model over the admin API, as the operator console does, and
    /// waits until the new file is live.
    static func replay(_ topology: Topology, _ service: Topology.Service, token: String) async throws {
        let transport = URLSessionTransport(timeout: 30)
        let base = topology.gatewayURL.appendingPathComponent("v1/admin/\(service.rawValue)")
        let authorization = ["Authorization": "Bearer \(token)"]
        let started = try await transport.send(HTTPRequestData(method: "POST", url: base.appendingPathComponent("replay"), headers: authorization))
        guard started.status == 202 else { throw Topology.Failure("replaying \(service.rawValue) answered \(started.status)") }
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            let answer = try await transport.send(
                HTTPRequestData(method: "GET", url: base.appendingPathComponent("projections"), headers: authorization))
            let replay = ((try? JSONSerialization.jsonObject(with: answer.body)) as? [String: Any])?["replay"] as? [String: Any]
            switch replay?["state"] as? String {
            case "done": return
            case "failed": throw Topology.Failure("the replay of \(service.rawValue) failed: \(replay?["error"] ?? "")")
            default: try await Task.sleep(for: .milliseconds(100))
            }
        }
        throw Topology.Failure("the replay of \(service.rawValue) did not finish within 120 s")
    }

    /// The response bodies that `app` gets for `paths`, joined: what a person could read
    /// there; and the paths that failed, with their status. A failure's own text is left
    /// out, as it may repeat the path (which can hold what is looked for).
    static func readable(_ app: CommonsClient, _ paths: [String]) async -> (text: String, failures: [String]) {
        var texts: [String] = []
        var failures: [String] = []
        for path in paths {
            do {
                texts.append(String(decoding: try await app.get(path), as: UTF8.self))
            } catch let problem as CommonsProblem {
                failures.append("\(path): \(problem.status)")
            } catch {
                failures.append("\(path): \(type(of: error))")
            }
        }
        return (texts.joined(separator: "\n"), failures)
    }
}
