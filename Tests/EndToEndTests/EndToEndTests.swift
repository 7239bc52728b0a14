import CommonsClient
import Foundation
import Testing
import TopologyKit

/// The whole system through its gateway, driven with CommonsClient as the apps drive it.
/// One topology for the suite; the tests run one at a time (one of them kills a service).
@Suite("end to end, through the gateway", .topology, .serialized)
struct EndToEndTests {
    // MARK: accounts

    @Test("register two accounts; sign in, refresh, edit the profile with If-Match; public profiles show nothing private")
    func accounts() async throws {
        let topology = try Topology.running()
        try topology.require(.accounts)
        let (ada, adaTokens, adaEmail) = try await E2E.person(topology, "Ada")
        let (bob, bobTokens, _) = try await E2E.person(topology, "Bob")
        #expect(adaTokens.accountId != bobTokens.accountId)

        let me = try await ada.accounts.me()
        #expect(me.value.email == adaEmail)
        #expect(me.value.displayName == "Ada")
        let etag = try #require(me.etag)

        let home = Coordinate(lat: 52.52, lon: 13.405)
        let changed = try await ada.accounts.updateProfile(ProfileChange(phone: .set("+49 30 1234567"), homeLocation: .set(home)), ifMatch: etag)
        #expect(changed.value.homeLocation == home)
        #expect(changed.etag != etag)
        let stale = await #expect(throws: CommonsProblem.self) {
            _ = try await ada.accounts.updateProfile(ProfileChange(displayName: "Ada L"), ifMatch: etag)
        }
        #expect(stale?.status == 412)
        #expect(stale?.kind == "stale-version")

        // What Bob sees of Ada: no email, phone or home.
        let profile = try await bob.accounts.profile(adaTokens.accountId)
        #expect(profile.displayName == "Ada")
        let raw = String(decoding: try await bob.get("/v1/users/\(adaTokens.accountId.uuidString.lowercased())"), as: UTF8.self)
        #expect(!raw.contains(adaEmail) && !raw.contains("1234567") && !raw.contains("52.52"))

        // The same email again: a conflict, as a typed problem.
        let taken = await #expect(throws: CommonsProblem.self) {
            try await E2E.app(topology).accounts.register(email: adaEmail, password: E2E.password, displayName: "Other")
        }
        #expect(taken?.status == 409)
        let invalid = await #expect(throws: CommonsProblem.self) {
            try await E2E.app(topology).accounts.register(email: "not-an-email", password: "x", displayName: "")
        }
        #expect(invalid?.status == 422)
        #expect(invalid?.errors.isEmpty == false)

        // A new device signs in; the session list shows both; refresh rotates the token.
        let tablet = E2E.app(topology, device: "Ada's tablet")
        let signedIn = try await tablet.accounts.signIn(email: adaEmail, password: E2E.password)
        #expect(signedIn.accountId == adaTokens.accountId)
        let sessions = try await tablet.accounts.sessions()
        #expect(sessions.count == 2)
        #expect(sessions.filter(\.current).map(\.id) == [signedIn.sessionId])
        let rotated = try await tablet.accounts.refresh()
        #expect(rotated.refreshToken != signedIn.refreshToken)

        // An access token the service refuses: the client refreshes once by itself and goes on.
        let expired = Tokens(
            accountId: rotated.accountId, sessionId: rotated.sessionId, accessToken: "expired.token.value",
            refreshToken: rotated.refreshToken, expiresIn: 0)
        await tablet.accounts.restore(expired)
        #expect(try await tablet.accounts.me().value.id == adaTokens.accountId)
        let renewed = try #require(await tablet.currentTokens())
        #expect(renewed.refreshToken != rotated.refreshToken)

        try await tablet.accounts.signOut()
        #expect(await tablet.currentTokens() == nil)
        #expect(try await ada.accounts.sessions().count == 1)
    }

    // MARK: geo-search

    @Test("searches answer pages and typed problems; alerts are saved, listed and deleted")
    func geoSearch() async throws {
        let topology = try Topology.running()
        try topology.require(.accounts, .geoSearch)
        let (ada, _, _) = try await E2E.person(topology, "Ada")
        let place = E2E.place()

        let nothing = try await ada.geo.nearbyListings(lat: place.lat, lon: place.lon, radius: 1)
        #expect(nothing.items.isEmpty)
        #expect(nothing.nextCursor == nil)
        #expect(try await ada.geo.countListings(.nearby(lat: place.lat, lon: place.lon, radius: 1)) == 0)
        #expect(
            try await ada.geo.organizations(.area(swLat: place.lat, swLon: place.lon, neLat: place.lat + 0.01, neLon: place.lon + 0.01))
                .items.isEmpty)

        let bad = await #expect(throws: CommonsProblem.self) {
            _ = try await ada.geo.nearbyListings(lat: 123, lon: place.lon, radius: 1)
        }
        #expect(bad?.status == 400)
        #expect(bad?.errors["lat"] != nil)

        let alert = try await ada.geo.createAlert(
            NewAlert(
                lat: place.lat, lon: place.lon, radius: 3, unit: .km, category: "Furniture",
                q: "chair", name: "Chairs nearby"))
        #expect(alert.name == "Chairs nearby")
        #expect(try await ada.geo.alerts().map(\.id) == [alert.id])
        #expect(try await ada.geo.alert(alert.id).radius == 3)
        #expect(try await ada.geo.alertMatches().items.isEmpty)
        try await ada.geo.deleteAlert(alert.id)
        #expect(try await ada.geo.alerts().isEmpty)
        let gone = await #expect(throws: CommonsProblem.self) { _ = try await ada.geo.alert(alert.id) }
        #expect(gone?.status == 404)

        let anonymous = await #expect(throws: CommonsTransportError.self) { _ = try await E2E.app(topology).geo.alerts() }
        #expect(anonymous == .notSignedIn)
    }

    // MARK: the gateway itself

    @Test("the gateway: unknown paths and oversized bodies get problem documents; a request id is passed on and echoed")
    func gateway() async throws {
        let topology = try Topology.running()
        let transport = URLSessionTransport(timeout: 10)
        func send(_ method: String, _ path: String, headers: [String: String] = [:], body: Data? = nil) async throws -> HTTPResponseData {
            try await transport.send(
                HTTPRequestData(method: method, url: topology.gatewayURL.appendingPathComponent(path), headers: headers, body: body))
        }
        func problem(_ response: HTTPResponseData) -> [String: Any] {
            (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
        }

        let nowhere = try await send("GET", "v2/nowhere")
        #expect(nowhere.status == 404)
        #expect(nowhere.headers["content-type"]?.hasPrefix("application/problem+json") == true)
        #expect(problem(nowhere)["status"] as? Int == 404)

        let requestId = "e2e-\(UUID().uuidString.prefix(8))"
        let traced = try await send("GET", "v1/users/\(UUID().uuidString.lowercased())", headers: ["X-Request-Id": requestId])
        #expect(traced.status == 404) // from accounts: no such user
        #expect(traced.headers["x-request-id"] == requestId)

        // 2 MiB of JSON to a route that takes small bodies (nginx allows 1 MiB outside /v1/images).
        let huge = Data("{\"email\":\"\(String(repeating: "x", count: 2 << 20))\"}".utf8)
        let tooLarge = try await send("POST", "v1/accounts", headers: ["Content-Type": "application/json"], body: huge)
        #expect(tooLarge.status == 413)
        #expect(tooLarge.headers["content-type"]?.hasPrefix("application/problem+json") == true)
        #expect(problem(tooLarge)["status"] as? Int == 413)
    }
}
