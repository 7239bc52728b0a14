import Contracts
import EventLog
import EventLogTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServiceKit
import ServiceTestSupport
import ShoppingListsDomain
import ShoppingListsService
import Synchronization
import Testing

/// The shopping-lists service on a fresh log and data directory, with a key ring to mint
/// tokens. Accounts are made by appending the events the accounts service writes.
struct ShoppingListsHarness {
    let log: TestLog
    let dataDirectory: String
    let ring = SigningKeyRing.generate()

    init(backend: Backend = .sqlite) async throws {
        log = try await backend.makeLog()
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("commons-shopping-\(UUID().uuidString)").path
    }

    func test(_ mode: TestingSetup = .router, _ body: @escaping @Sendable (Client) async throws -> Void) async throws {
        var configuration = try ServiceConfiguration(
            service: ShoppingListsService.name, defaultPort: 0,
            environment: EnvironmentVariables(["COMMONS_DATA_DIR": dataDirectory].merging(log.serviceEnvironment) { $1 }))
        configuration.readYourWritesPatience = .seconds(15) // another test may hold a PostgreSQL transaction for 10 s
        let ring = ring
        let (application, runtime, routes) = try await ServiceApp.build(
            try ShoppingListsService.definition(), configuration: configuration, store: log.store, publicKeys: LocalPublicKeySource { ring })
        try await application.test(mode) { client in
            try await body(Client(client: client, runtime: runtime, routes: routes, ring: ring))
        }
        await log.close()
    }

    /// A JSON client that sends `Commons-Min-Position` of the latest write it saw, so every
    /// read sees every earlier write.
    struct Client: Sendable {
        let client: any TestClientProtocol
        let runtime: ServiceRuntime
        let routes: [String]
        let ring: SigningKeyRing
        private let latest = Latest()

        init(client: any TestClientProtocol, runtime: ServiceRuntime, routes: [String], ring: SigningKeyRing) {
            self.client = client
            self.runtime = runtime
            self.routes = routes
            self.ring = ring
        }

        var store: any EventStore { runtime.store }

        /// Every page of the list at `uri` (its query started with `?`), following each
        /// `nextCursor`: each page's items, at most `limit` pages. A page that is not 200 ends it, recorded.
        func pages(_ uri: String, as account: Account? = nil, limit: Int = 50) async throws -> [[[String: Any]]] {
            var pages: [[[String: Any]]] = []
            var cursor: String?
            repeat {
                let page = try await call(.get, uri + (cursor.map { "&cursor=\($0)" } ?? ""), as: account)
                #expect(page.status == .ok, "\(page.text)")
                guard page.status == .ok else { break }
                pages.append(page.items)
                cursor = page.json["nextCursor"] as? String
            } while cursor != nil && pages.count < limit
            return pages
        }

        @discardableResult
        func call(
            _ method: HTTPRequest.Method, _ uri: String, as account: Account? = nil, json: Any? = nil, raw: String? = nil,
            headers extra: [HTTPField.Name: String] = [:]
        ) async throws -> Reply {
            var headers = HTTPFields()
            if let account { headers[.authorization] = "Bearer \(try await token(for: account.id))" }
            if json != nil || raw != nil { headers[.contentType] = "application/json" }
            if let position = latest.value { headers[.commonsMinPosition] = position.description }
            for (name, value) in extra { headers[name] = value }
            let body = try json.map { ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: $0)) } ?? raw.map { ByteBuffer(string: $0) }
            let response = try await client.execute(uri: uri, method: method, headers: headers, body: body)
            if let position = response.headers[.commonsPosition].flatMap(Checkpoint.init) { latest.see(position) }
            let reply = Reply(status: response.status, headers: response.headers, body: Data(response.body.readableBytesView))
            APIContract.verify(
                TestReply(status: reply.status, headers: reply.headers, body: reply.body), method: method, uri: uri,
                document: ShoppingListsService.openAPI)
            return reply
        }

        func token(for account: UUID) async throws -> String {
            let (signer, kid) = try await ring.signer()
            return try await signer.sign(
                AccessTokenClaims(accountId: account, sessionId: UUID(), role: .member, issuedAt: Date(), lifetime: 900),
                kid: .init(string: kid))
        }

        /// A registered account, as the accounts service would have appended it.
        func account() async throws -> Account {
            let id = UUID()
            let dummy = Sealed(keyId: id, box: "")
            let result = try await store.append(
                to: "account-\(id.uuidString.lowercased())", expected: .noStream,
                events: [
                    try EventCatalog.encode(
                        AccountRegistered(accountId: id, role: "member", personal: dummy, passwordHash: dummy, registeredAt: Date()))
                ])
            latest.see(result.checkpoint)
            return Account(id: id)
        }

        /// Deletes an account as the accounts service does: destroys its key, appends `AccountDeleted`.
        func delete(_ account: Account) async throws {
            try await runtime.keyVault.destroyKey(for: account.id)
            let result = try await store.append(
                to: "account-\(account.id.uuidString.lowercased())", expected: .any,
                events: [
                    try EventCatalog.encode(AccountDeleted(accountId: account.id, deletedAt: Date()))
                ])
            latest.see(result.checkpoint)
        }

        /// Imports a catalogue through the service's command path, then reads wait for it.
        @discardableResult
        func importCatalog(_ file: CatalogFile) async throws -> CatalogImport.Report {
            let report = try await CatalogImport.run(file, into: store)
            if let checkpoint = report.checkpoint { latest.see(checkpoint) }
            return report
        }

        /// Waits until the read model holds every write this client has seen, for a test that
        /// reads the read model's tables rather than through HTTP.
        func caughtUp() async throws {
            guard let position = latest.value else { return }
            let applied = await runtime.waitUntilApplied(position, timeout: .seconds(60))
            if !applied { throw TestFailure("the read model did not reach \(position) in 60 s") }
        }

        /// Makes a list owned by `owner` and returns its id.
        func list(_ name: String = "Weekly shop", by owner: Account) async throws -> UUID {
            let reply = try await call(.post, "/v1/lists", as: owner, json: ["name": name])
            guard reply.status == .created, let id = (reply.json["id"] as? String).flatMap(UUID.init(uuidString:)) else {
                throw TestFailure("create list: \(reply.status) \(reply.text)")
            }
            return id
        }

        /// Adds an item and returns its id.
        func add(_ fields: [String: Any], to list: UUID, by account: Account) async throws -> UUID {
            let reply = try await call(.post, "/v1/lists/\(list.key)/items", as: account, json: fields)
            guard reply.status == .created, let id = (reply.json["id"] as? String).flatMap(UUID.init(uuidString:)) else {
                throw TestFailure("add item: \(reply.status) \(reply.text)")
            }
            return id
        }

        /// `GET /v1/lists/{id}` as JSON; fails unless 200.
        func view(_ list: UUID, as account: Account) async throws -> [String: Any] {
            let reply = try await call(.get, "/v1/lists/\(list.key)", as: account)
            guard reply.status == .ok else { throw TestFailure("get list: \(reply.status) \(reply.text)") }
            return reply.json
        }

        /// The events of a stream.
        func events(of list: UUID) async throws -> [RecordedEvent] {
            try await store.read(stream: "list-\(list.key)")
        }
    }

    struct Account: Sendable, Hashable {
        let id: UUID
    }

    struct Reply: Sendable {
        let status: HTTPResponse.Status
        let headers: HTTPFields
        let body: Data

        var text: String { String(decoding: body, as: UTF8.self) }
        /// The body as JSON, with UUIDs in lowercase (Foundation writes them in uppercase).
        var json: [String: Any] { lowercasingIds((try? JSONSerialization.jsonObject(with: body)) ?? [:]) as? [String: Any] ?? [:] }
        var items: [[String: Any]] { json["items"] as? [[String: Any]] ?? [] }
        var fieldErrors: [String: [String]] { json["errors"] as? [String: [String]] ?? [:] }
    }
}

/// `value` with every UUID string in lowercase.
func lowercasingIds(_ value: Any) -> Any {
    switch value {
    case let text as String: UUID(uuidString: text) == nil ? text : text.lowercased()
    case let array as [Any]: array.map(lowercasingIds)
    case let object as [String: Any]: object.mapValues(lowercasingIds)
    default: value
    }
}

/// The latest checkpoint a client has seen.
final class Latest: Sendable {
    private let checkpoint = Mutex<Checkpoint?>(nil)

    var value: Checkpoint? { checkpoint.withLock { $0 } }

    func see(_ position: Checkpoint) {
        checkpoint.withLock { current in if current.map({ position > $0 }) ?? true { current = position } }
    }
}

extension [[String: Any]] {
    var ids: [String] { compactMap { $0["id"] as? String } }
}
