import CommonsClient
import Crypto
import EventLogTestSupport
import Foundation
import PhotoTestSupport
import Testing
import TopologyKit

extension EndToEndTests {
    @Test(
        """
        deleting an account that did everything leaves none of its data in any answer, the log export, any row of the \
        database, any read model (one a replay replaced included) or the outbox, the text of its listings included
        """)
    func deletingAnAccount() async throws {
        let topology = try Topology.running()
        try topology.require(.accounts, .listings, .geoSearch, .donations, .shoppingLists)
        // Every piece of Zoe's personal data carries this marker, so a leftover is found in any answer.
        let marker = E2E.marker("zoe")
        // What Zoe publishes for anyone to read (a listing's title, description and pickup note)
        // has its own marker, searched for in the keyword indexes too: sealed in the log, it
        // leaves every read model with the account.
        let published = E2E.marker("pub")
        let (zoe, zoeTokens, zoeEmail) = try await E2E.person(topology, "Zoe \(marker)", email: "\(marker)@e2e.commons.test")
        let (bob, _, _) = try await E2E.person(topology, "Bob")
        let zoeId = zoeTokens.accountId.uuidString.lowercased()
        let place = E2E.place()
        _ = try await zoe.accounts.updateProfile(ProfileChange(phone: .set("+44 20 7946 0958"), homeLocation: .set(place)))

        // Zoe's data in each service: a listing with a comment, a request and a message on Bob's
        // listing, a public donation with a shared post, a shared shopping list.
        let photo = try await zoe.listings.uploadImage(
            Data(try await PhotoTools.jpegWithPosition(width: 800, height: 600, noise: 20, marker: marker)), contentType: "image/jpeg")
        let photoBytes = try await zoe.listings.image(photo.id)
        let listing = try await zoe.listings.post(
            NewListing(
                title: "Lamp of \(published)", description: "From \(published)", category: "Household",
                condition: "good", pickupTimes: PickupTimes(note: "Evenings, ask for \(published)"),
                pickupLocation: place, streetAddress: "\(marker) Street 1", imageIds: [photo.id]))
        _ = try await zoe.listings.comment(listing.id, text: "Comment by \(marker)")
        let bobs = try await bob.listings.post(
            NewListing(
                title: "Bob's bike", category: "Sports", condition: "fair",
                pickupLocation: Coordinate(lat: place.lat + 0.001, lon: place.lon)))
        E2E.carryPosition(from: bob, to: zoe)
        let request = try await zoe.listings.request(bobs.id, message: "Request from \(marker)")
        _ = try await zoe.listings.send(request.conversationId.uuidString.lowercased(), text: "Message from \(marker)")

        let admin = try await E2E.admin(topology)
        let slug = E2E.marker("care-")
        let organization = try await admin.donations.registerOrganization(
            OrganizationFields(
                name: "Care", slug: slug, kind: "charity", mission: "Care for all.", currency: "USD", minimumDonationMinor: 100))
        _ = try await admin.donations.setVerified(organization.id, true)
        E2E.carryPosition(from: admin, to: zoe)
        _ = try await zoe.donations.topUp(amountMinor: 2_000, currency: "USD", cardNumber: "4242424242424242")
        let donation = try await zoe.donations.donate(
            NewDonation(
                organization: slug, amountMinor: 500, currency: "USD",
                message: "Donation note \(marker)", visibility: "public"))
        _ = try await zoe.donations.share(donation.donation.id, caption: "Shared by \(marker)")

        let list = try await zoe.lists.create(name: "List of \(marker)")
        _ = try await zoe.lists.addItem(list.id, text: "Item of \(marker)", note: "Note of \(marker)")
        E2E.carryPosition(from: bob, to: zoe)
        try await zoe.lists.share(list.id, with: try #require(await bob.accountId()))

        // An administrator replays every read model while Zoe still exists: the files the
        // replays replace hold her rows, and must not outlive her account either.
        let adminToken = try #require(await admin.currentTokens()?.accessToken)
        for service in Topology.Service.allCases { try await E2E.replay(topology, service, token: adminToken) }

        let listingPath = "/v1/listings/\(listing.id.uuidString.lowercased())"
        let paths = [
            "/v1/users/\(zoeId)", listingPath, "\(listingPath)/comments", "/v1/listings?q=\(published)",
            "/v1/listings/\(bobs.id.uuidString.lowercased())/requests", "/v1/conversations",
            "/v1/conversations/\(request.conversationId.uuidString.lowercased())/messages",
            "/v1/nearby/listings?lat=\(place.lat)&lon=\(place.lon)&radius=5",
            "/v1/organizations/\(slug)/supporters", "/v1/donation-posts?limit=100",
            "/v1/lists", "/v1/lists/\(list.id.uuidString.lowercased())",
        ]
        // Before: Bob (and the public) can read what Zoe shared.
        E2E.carryPosition(from: zoe, to: bob)
        let before = await E2E.readable(bob, paths)
        #expect(before.failures.isEmpty)
        #expect(before.text.contains(marker), "the check below would prove nothing if Zoe's data were never readable")

        // A reset code mailed to her address waits in the outbox.
        try await E2E.app(topology).accounts.requestPasswordReset(email: zoeEmail)

        try await zoe.accounts.deleteAccount()
        #expect(await zoe.currentTokens() == nil)
        E2E.carryPosition(from: zoe, to: bob)

        let (after, _) = await E2E.readable(bob, paths) // failures now are expected: Zoe's things are gone
        #expect(!after.contains(marker), "personal data of a deleted account is still readable:\n\(after)")
        #expect(!after.contains(published), "the text of a deleted account's listing is still served:\n\(after)")
        #expect(!after.contains(zoeEmail))
        #expect(!after.contains("7946 0958"))
        let gone = await #expect(throws: CommonsProblem.self) { _ = try await bob.accounts.profile(zoeTokens.accountId) }
        #expect(gone?.status == 404)
        let signIn = await #expect(throws: CommonsProblem.self) {
            try await E2E.app(topology).accounts.signIn(email: zoeEmail, password: E2E.password)
        }
        #expect(signIn?.status == 401)

        // Beyond the answers: the log as exported, every row of the database (log, key vault,
        // idempotency records, photos), every file of every service's data directory (read
        // models, outbox). Neither the marker, the address, the address's SHA-256, the phone,
        // nor the photo's bytes.
        let emailHash = SHA256.hash(data: Data(zoeEmail.utf8)).map { String(format: "%02x", $0) }.joined()
        // From an offset that is a multiple of 3, so that its base64 (the export's form) is a
        // substring of the whole photo's base64 too.
        let photoSlice = Data(photoBytes.dropFirst(photoBytes.count / 6 * 3).prefix(24))
        let dataDirectory = topology.runDirectory.appendingPathComponent("data")
        // A replaced file is removed once the requests that may still read it have met their deadline.
        let replaced = try await DataDirectoryScan.replacedReadModels(under: dataDirectory)
        #expect(replaced.isEmpty, "read-model files a replay replaced are still on disk: \(replaced)")
        let files = DataDirectoryScan.files(under: dataDirectory)
        let stores: [(name: String, bytes: Data)] =
            [
                ("the log export", Data(try await topology.logExport().utf8)),
                ("the database", Data(try await topology.databaseDump().utf8)),
            ] + files.map { ("data/\($0.path)", $0.bytes) }
        #expect(
            files.contains { $0.path.hasSuffix(".sqlite") } && files.contains { $0.path.contains("outbox") } == false,
            "the read models are scanned, and the outbox holds nothing for the address")
        for store in stores {
            #expect(store.bytes.count > 1_000 || store.name.hasPrefix("data/"), "\(store.name) is empty: the scan would prove nothing")
            for secret in [
                marker, published, zoeEmail, emailHash, "7946 0958", photoSlice.map { String(format: "%02x", $0) }.joined(),
                photoSlice.base64EncodedString(),
            ] {
                #expect(store.bytes.range(of: Data(secret.utf8)) == nil, "\(secret) is still in \(store.name)")
            }
            #expect(store.bytes.range(of: Data(photoSlice)) == nil, "the photo's bytes are still in \(store.name)")
        }
    }

    @Test("a service killed with SIGKILL mid-run starts again and catches up: nothing lost, nothing twice")
    func killAndRestart() async throws {
        let topology = try Topology.running()
        try topology.require(.accounts, .listings, .geoSearch)
        let (ada, _, _) = try await E2E.person(topology, "Ada")
        let place = E2E.place()
        func post(_ n: Int) async throws -> UUID {
            try await ada.listings.post(
                NewListing(
                    title: "Item \(n)", category: "Other", condition: "good",
                    pickupLocation: Coordinate(lat: place.lat + Double(n) * 0.0005, lon: place.lon))
            ).id
        }
        var posted: [UUID] = []
        for n in 0..<3 { posted.append(try await post(n)) }
        #expect(try await ada.geo.countListings(.nearby(lat: place.lat, lon: place.lon, radius: 5)) == 3)

        // geo-search dies without a chance to finish anything; meanwhile the system goes on.
        try await topology.kill(.geoSearch)
        if topology.gateway == .nginx {
            // One try, no retries: nginx has nothing to send it to. (commons up restarts the child
            // itself after 0.5 s, and its gateway holds requests until the child is ready again.)
            let impatient = CommonsClient(baseURL: topology.gatewayURL, retry: RetryPolicy(attempts: 1))
            let unavailable = await #expect(throws: CommonsProblem.self) {
                _ = try await impatient.geo.nearbyListings(lat: place.lat, lon: place.lon, radius: 5)
            }
            #expect(unavailable.map { [502, 503, 504].contains($0.status) } == true, "geo-search is down")
        }
        for n in 3..<8 { posted.append(try await post(n)) }

        try await topology.restart(.geoSearch)
        posted.append(try await post(8))
        // Ada's client carries the position of her last write: the read waits until geo-search has caught up.
        var found: [UUID] = []
        var cursor: String?
        repeat {
            let page = try await ada.geo.nearbyListings(lat: place.lat, lon: place.lon, radius: 5, ListingSearchFilters(limit: 4, cursor: cursor))
            found += page.items.map(\.id)
            cursor = page.nextCursor
        } while cursor != nil
        #expect(found.count == posted.count, "each listing once: \(found.count) found for \(posted.count) posted")
        #expect(Set(found) == Set(posted))
        #expect(try await ada.geo.countListings(.nearby(lat: place.lat, lon: place.lon, radius: 5)) == posted.count)
        // The listings feed agrees with the log too.
        let mine = try await ada.listings.feed(ListingFeedQuery(author: "me", limit: 50))
        #expect(Set(mine.items.map(\.id)) == Set(posted))
        #expect(mine.items.count == posted.count)
    }

    @Test("a writer killed with SIGKILL: a post sent while it is down is retried with its Idempotency-Key and lands once")
    func killWriter() async throws {
        let topology = try Topology.running()
        try topology.require(.accounts, .listings, .geoSearch)
        let (_, _, email) = try await E2E.person(topology, "Bea")
        // A phone that keeps trying for about 30 s, as an app would while the service is replaced.
        let patient = CommonsClient(
            baseURL: topology.gatewayURL, retry: RetryPolicy(attempts: 40, initialDelay: .milliseconds(250), maximumDelay: .seconds(1)),
            userAgent: "Bea's patient phone")
        _ = try await patient.accounts.signIn(email: email, password: E2E.password)
        let place = E2E.place()
        @Sendable func post(_ n: Int) async throws -> UUID {
            try await patient.listings.post(
                NewListing(
                    title: "Bea's item \(n)", category: "Other", condition: "good",
                    pickupLocation: Coordinate(lat: place.lat + Double(n) * 0.0005, lon: place.lon))
            ).id
        }
        var posted = [try await post(0), try await post(1)]

        try await topology.kill(.listings)
        if topology.gateway == .nginx {
            let impatient = CommonsClient(baseURL: topology.gatewayURL, retry: RetryPolicy(attempts: 1))
            let unavailable = await #expect(throws: CommonsProblem.self) { _ = try await impatient.listings.feed(ListingFeedQuery(limit: 1)) }
            #expect(unavailable.map { [502, 503, 504].contains($0.status) } == true, "listings is down when the post is sent")
        }
        async let sentWhileDown = post(2)
        try await Task.sleep(for: .milliseconds(600))
        try await topology.restart(.listings)
        posted.append(try await sentWhileDown)
        posted.append(try await post(3))

        let mine = try await patient.listings.feed(ListingFeedQuery(author: "me", limit: 50))
        #expect(mine.items.count == 4, "each post once: \(mine.items.map(\.title))")
        #expect(Set(mine.items.map(\.id)) == Set(posted))
        #expect(try await patient.geo.countListings(.nearby(lat: place.lat, lon: place.lon, radius: 5)) == 4)
    }
}
