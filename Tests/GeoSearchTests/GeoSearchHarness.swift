import Contracts
import EventLog
import EventLogTestSupport
import Foundation
import Geo
import GeoSearchDomain
import GeoSearchService
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServiceKit
import ServiceTestSupport
import Testing

/// The geo-search service on a fresh log and data directory. Tests append the events that
/// the listings and donations services will write, then query through HTTP.
struct GeoSearchHarness {
    let log: TestLog
    let dataDirectory: String

    /// The service's own settings (e.g. `COMMONS_SEARCH_SCAN_LIMIT`).
    var settings: [String: String] = [:]
    /// How long a read with `Commons-Min-Position` waits before answering 503.
    var readYourWritesPatience = Duration.seconds(15)

    init(backend: Backend = .sqlite, settings: [String: String] = [:]) async throws {
        self.settings = settings
        log = try await backend.makeLog()
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("commons-geo-\(UUID().uuidString)").path
    }

    /// Runs `body` against the service; `.live` serves on a real port (`client.client.port`), for streams.
    func test(_ mode: TestingSetup = .router, _ body: @escaping @Sendable (Client) async throws -> Void) async throws {
        var configuration = try ServiceConfiguration(
            service: GeoSearchService.name, defaultPort: 0,
            environment: EnvironmentVariables(["COMMONS_DATA_DIR": dataDirectory].merging(log.serviceEnvironment) { $1 }))
        configuration.readYourWritesPatience = readYourWritesPatience
        let ring = SigningKeyRing.generate()
        let (application, runtime, routes) = try await ServiceApp.build(
            try GeoSearchService.definition(environment: EnvironmentVariables(settings)), configuration: configuration, store: log.store,
            publicKeys: LocalPublicKeySource { ring })
        let store = log.store
        try await application.test(mode) { client in
            try await body(Client(client: client, store: store, routes: routes, ring: ring, runtime: runtime))
        }
        await log.close()
    }

    struct Client: Sendable {
        let client: any TestClientProtocol
        let store: any EventStore
        let routes: [String]
        let ring: SigningKeyRing
        let runtime: ServiceRuntime

        /// A valid access token for `account`.
        func token(for account: UUID) async throws -> String {
            let (signer, kid) = try await ring.signer()
            let claims = AccessTokenClaims(accountId: account, sessionId: UUID(), role: .member, issuedAt: Date(), lifetime: 900)
            return try await signer.sign(claims, kid: .init(string: kid))
        }

        /// A request as `account` (anonymous when nil), with a JSON body and `Commons-Min-Position` when given.
        func send(
            _ method: HTTPRequest.Method, _ uri: String, as account: UUID?, json: [String: Any]? = nil,
            after position: String? = nil
        ) async throws -> Reply {
            var headers = HTTPFields()
            if let account { headers[.authorization] = "Bearer \(try await token(for: account))" }
            if let position { headers[.commonsMinPosition] = position }
            var body: ByteBuffer?
            if let json {
                headers[.contentType] = "application/json"
                body = ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: json))
            }
            let response = try await client.execute(uri: uri, method: method, headers: headers, body: body)
            let reply = Reply(status: response.status, headers: response.headers, body: Data(response.body.readableBytesView))
            APIContract.verify(reply, method: method, uri: uri, document: GeoSearchService.openAPI)
            return reply
        }

        /// Appends one event and returns its checkpoint, as `Commons-Min-Position` takes it.
        @discardableResult
        func append<E: EventContract>(_ event: E, to stream: String) async throws -> String {
            let result = try await store.append(to: stream, expected: .any, events: [try EventCatalog.encode(event)])
            return result.checkpoint.description
        }

        /// Posts a listing at `point` (taken as its public point) and returns the checkpoint.
        @discardableResult
        func post(
            _ id: UUID = UUID(), owner: UUID = UUID(), title: String = "A thing", description: String = "Still works",
            category: String = "Furniture", price: Money? = nil, at point: Coordinate,
            postedAt: Date = Date(timeIntervalSince1970: 1_800_000_000)
        ) async throws -> String {
            // With its text sealed with the owner's key, as the listings service appends it.
            let posted = ListingPosted(
                listingId: id, ownerId: owner, title: title, description: description, category: category,
                price: price, publicLocation: point, postedAt: postedAt)
            guard let sealed = try await PersonalDataSealer(vault: runtime.keyVault).sealingListingText(posted, owner: owner) as? ListingPosted,
                sealed.text != nil, sealed.title == nil
            else { throw TestFailure("the listing's text was not sealed") }
            let result = try await store.append(
                to: "listing-\(id.uuidString.lowercased())", expected: .any,
                events: [try EventCatalog.encode(sealed)])
            return result.checkpoint.description
        }

        /// Sets a listing's photos and pickup times (`ListingDetailsSet`, its note sealed with
        /// the owner's key), as the listings service appends them after a post or an edit.
        @discardableResult
        func setDetails(of id: UUID, owner: UUID, imageIds: [UUID], pickupTimes: Contracts.PickupTimes) async throws -> String {
            let details = ListingDetailsSet(listingId: id, condition: "good", pickupTimes: pickupTimes, imageIds: imageIds)
            let sealed = try await PersonalDataSealer(vault: runtime.keyVault).sealingListingText(details, owner: owner)
            let result = try await store.append(
                to: "listing-\(id.uuidString.lowercased())", expected: .any, events: [try EventCatalog.encode(sealed)])
            return result.checkpoint.description
        }

        func get(_ uri: String, after position: String? = nil) async throws -> Reply {
            var headers = HTTPFields()
            if let position { headers[.commonsMinPosition] = position }
            let response = try await client.execute(uri: uri, method: .get, headers: headers, body: nil)
            let reply = Reply(status: response.status, headers: response.headers, body: Data(response.body.readableBytesView))
            APIContract.verify(reply, method: .get, uri: uri, document: GeoSearchService.openAPI)
            return reply
        }

        /// The items of a 200 answer.
        func items(_ uri: String, after position: String? = nil) async throws -> [[String: Any]] {
            let reply = try await get(uri, after: position)
            guard reply.status == .ok else { throw TestFailure("\(uri): \(reply.status) \(reply.text)") }
            return reply.json["items"] as? [[String: Any]] ?? []
        }
    }

}

/// Known places.
enum City {
    static let sanFrancisco = Coordinate(lat: 37.7749, lon: -122.4194)
    static let oakland = Coordinate(lat: 37.8044, lon: -122.2712)
    static let sacramento = Coordinate(lat: 38.5816, lon: -121.4944)
    static let honolulu = Coordinate(lat: 21.3069, lon: -157.8583)
    static let suva = Coordinate(lat: -18.1416, lon: 178.4419) // Fiji, west of the antimeridian
    static let apia = Coordinate(lat: -13.8333, lon: -171.7500) // Samoa, east of it
}

extension Coordinate {
    var point: GeoCoordinate { GeoCoordinate(lat: lat, lon: lon)! }
}

extension [[String: Any]] {
    var ids: [String] { compactMap { $0["id"] as? String }.map { $0.lowercased() } }
}

extension GeoSearchHarness {
    typealias Reply = TestReply
}
