import Contracts
import EventLog
import EventLogTestSupport
import Foundation
import GeoSearchService
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ReadModel
import ServiceKit
import ServiceTestSupport
import Testing

/// A new replica that starts from another's read-model snapshot (`COMMONS_SNAPSHOT_SOURCE`).
@Suite("read-model snapshots")
struct ReadModelSnapshotTests {
    static let sf = "lat=\(City.sanFrancisco.lat)&lon=\(City.sanFrancisco.lon)&radius=5"

    /// A second geo-search on `harness`'s log with its own data directory and `environment`,
    /// run until `body` returns.
    private static func replica(
        of harness: GeoSearchHarness, environment: [String: String],
        _ body: @escaping @Sendable (any TestClientProtocol, ServiceRuntime) async throws -> Void
    ) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("commons-geo-replica-\(UUID().uuidString)").path
        let store = try await harness.log.independentStore(hearsEveryCategory: false)
        let configuration = try ServiceConfiguration(
            service: GeoSearchService.name, defaultPort: 0,
            environment: EnvironmentVariables(
                ["COMMONS_DATA_DIR": directory].merging(environment) { $1 }.merging(harness.log.serviceEnvironment) { $1 }))
        let ring = SigningKeyRing.generate()
        let (application, runtime, _) = try await ServiceApp.build(
            try GeoSearchService.definition(), configuration: configuration, store: store, publicKeys: LocalPublicKeySource { ring })
        try await application.test(.router) { client in try await body(client, runtime) }
        await store.shutdown()
    }

    /// Asks `/health/ready` until it answers 200 (a generous minute).
    private static func waitUntilReady(_ client: any TestClientProtocol) async throws {
        for _ in 0..<1_200 {
            if try await client.execute(uri: "/health/ready", method: .get).status == .ok { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("the replica did not report ready within a minute")
    }

    private static func ids(_ client: any TestClientProtocol) async throws -> [String] {
        let response = try await client.execute(uri: "/v1/nearby/listings?\(sf)", method: .get)
        #expect(response.status == .ok)
        let json = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any]
        return (json?["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }.map { $0.lowercased() }.sorted()
    }

    @Test(
        "a replica takes a peer's snapshot; one taken before a person's deletion brings nothing of them back once the replica reports ready",
        arguments: Backend.allCases)
    func fromPeerAndAfterDeletion(backend: Backend) async throws {
        let harness = try await GeoSearchHarness(backend: backend)
        try await harness.test(.live) { peer in
            let (leaver, stayer) = (UUID(), UUID())
            let (leaversListing, stayersListing) = (UUID(), UUID())
            try await peer.post(leaversListing, owner: leaver, at: City.sanFrancisco)
            let last = try await peer.post(stayersListing, owner: stayer, at: City.sanFrancisco)
            #expect(try await peer.items("/v1/nearby/listings?\(Self.sf)", after: last).count == 2)
            let port = try #require(peer.client.port)
            // A peer hands out its snapshot only once every projection has caught up.
            try await Self.waitUntilReady(peer.client)

            // From the peer itself, through its own address: the same answers at once.
            try await Self.replica(of: harness, environment: ["COMMONS_SNAPSHOT_SOURCE": "http://127.0.0.1:\(port)"]) { client, runtime in
                try await Self.waitUntilReady(client)
                #expect(!runtime.readModel.path.hasSuffix("/geo-search.sqlite"), "started from the snapshot, not from an empty file")
                #expect(try await Self.ids(client) == [leaversListing.key, stayersListing.key].sorted())
            }

            // A snapshot saved now, then the leaver deletes their account.
            var headers = HTTPFields()
            headers[ReplicaCredential.header] =
                ReplicaCredential(
                    secrets: try KeyVaultSecrets.resolve(environment: EnvironmentVariables(harness.log.serviceEnvironment), developmentFile: nil)
                ).value
            let snapshot = try await peer.client.execute(uri: "/v1/admin/geo-search/snapshot", method: .get, headers: headers)
            #expect(snapshot.status == .ok)
            #expect(snapshot.headers[.contentType] == "application/vnd.sqlite3")
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("commons-snapshot-\(UUID().uuidString).sqlite")
            try Data(snapshot.body.readableBytesView).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            try await peer.append(AccountDeleted(accountId: leaver, deletedAt: Date()), to: "account-\(leaver.key)")

            try await Self.replica(of: harness, environment: ["COMMONS_SNAPSHOT_SOURCE": file.path]) { client, runtime in
                try await Self.waitUntilReady(client)
                #expect(!runtime.readModel.path.hasSuffix("/geo-search.sqlite"), "started from the snapshot, not from an empty file")
                #expect(try await Self.ids(client) == [stayersListing.key], "the leaver's listing is gone when it first reports ready")
            }
        }
    }

    @Test("only a replica's credential is given a snapshot: none, a wrong one and an administrator's token get 403")
    func credential() async throws {
        try await GeoSearchHarness().test { client in
            let uri = "/v1/admin/geo-search/snapshot"
            #expect(try await client.client.execute(uri: uri, method: .get).status == .forbidden)
            var wrong = HTTPFields()
            wrong[ReplicaCredential.header] = String(repeating: "A", count: 43)
            #expect(try await client.client.execute(uri: uri, method: .get, headers: wrong).status == .forbidden)
            let admin = UUID()
            let (signer, kid) = try await client.ring.signer()
            let token = try await signer.sign(
                AccessTokenClaims(accountId: admin, sessionId: UUID(), role: .admin, issuedAt: Date(), lifetime: 900), kid: .init(string: kid))
            var asAdmin = HTTPFields()
            asAdmin[.authorization] = "Bearer \(token)"
            #expect(try await client.client.execute(uri: uri, method: .get, headers: asAdmin).status == .forbidden)
        }
    }

    @Test("a snapshot that is damaged, of another schema or missing is refused, and the replica rebuilds from the log instead")
    func refusedSnapshots() async throws {
        let harness = try await GeoSearchHarness()
        try await harness.test { peer in
            let listing = UUID()
            let last = try await peer.post(listing, at: City.sanFrancisco)
            #expect(try await peer.items("/v1/nearby/listings?\(Self.sf)", after: last).count == 1)
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("commons-snapshots-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let damaged = directory.appendingPathComponent("damaged.sqlite")
            try Data("SQLite format 3\0 but nothing after it".utf8).write(to: damaged)
            // A read model of another service: its schema is not geo-search's.
            _ = try ReadModelDatabase(directory: directory, name: "other", projections: [])
            let otherSchema = directory.appendingPathComponent("other.sqlite")

            for snapshot in [damaged.path, otherSchema.path, directory.appendingPathComponent("missing.sqlite").path] {
                try await Self.replica(of: harness, environment: ["COMMONS_SNAPSHOT_SOURCE": snapshot]) { client, runtime in
                    try await Self.waitUntilReady(client)
                    #expect(runtime.readModel.path.hasSuffix("/geo-search.sqlite"), "rebuilt from the log into a file of its own")
                    #expect(try await Self.ids(client) == [listing.key], "\(snapshot)")
                }
            }
        }
    }
}
