import AsyncHTTPClient
import CommonsClient
import EventLogTestSupport
import Foundation
import PhotoCodec
import Testing

/// What the end-to-end deletion check proves on PostgreSQL, on the embedded SQLite log that
/// `commons up` runs: there the log, the key vault and every read model are files of the
/// one data directory, so every byte that could hold a deleted person is scanned.
@Suite("erasure on the embedded log")
struct ErasureTests {
    @Test(
        """
        on the embedded log, a deleted account leaves nothing it wrote, its address or its photo in any file of the data \
        directory, after every read model was replayed and swapped while it existed
        """)
    func deletionLeavesNothing() async throws {
        // A short request deadline: a file a replay replaced is removed that much (plus 5 s) later.
        let environment = ["COMMONS_BCRYPT_COST": "4", "COMMONS_REQUEST_DEADLINE_SECONDS": "3"]
        let stack = try UpProcess.start(seed: false, log: nil, environment: environment)
        try await stack.run { stack in
            let gateway = try #require(URL(string: stack.gateway))
            let adminEmail = "admin-\(UUID().uuidString.prefix(8).lowercased())@example.org"
            let created = try await commons(
                "accounts", "create-admin", adminEmail, "--password-stdin", log: nil, stdin: Data("a long enough phrase\n".utf8),
                environment: environment.merging(["COMMONS_DATA_DIR": stack.dataDirectory.path]) { $1 })
            #expect(created.status == 0, "\(created)")

            let positions = PositionTracker()
            let (zoe, bob, admin) = (
                CommonsClient(baseURL: gateway, positions: positions), CommonsClient(baseURL: gateway, positions: positions),
                CommonsClient(baseURL: gateway, positions: positions)
            )
            let marker = "zoe\(UUID().uuidString.prefix(8).lowercased())"
            let email = "\(marker)@example.org"
            _ = try await zoe.accounts.register(email: email, password: "a long passphrase for zoe", displayName: "Zoe \(marker)")
            _ = try await bob.accounts.register(
                email: "bob-\(marker.dropFirst(3))@example.org", password: "a long passphrase for bob", displayName: "Bob")
            let adminTokens = try await admin.accounts.signIn(email: adminEmail, password: "a long enough phrase")

            let jpeg = try #require(SamplePhoto.make(width: 640, height: 480, format: .jpeg, noise: 25))
            let photo = try await zoe.listings.uploadImage(Data(jpeg), contentType: "image/jpeg")
            let served = try await zoe.listings.image(photo.id)
            let place = Coordinate(lat: 52.37, lon: 4.89)
            let listing = try await zoe.listings.post(
                NewListing(
                    title: "Lamp of \(marker)", description: "From \(marker)", category: "Household", condition: "good",
                    pickupTimes: PickupTimes(note: "Ask for \(marker)"), pickupLocation: place, streetAddress: "\(marker) Street 1",
                    imageIds: [photo.id]))
            _ = try await zoe.listings.comment(listing.id, text: "Comment by \(marker)")
            let bobs = try await bob.listings.post(
                NewListing(title: "Bob's bike", category: "Sports", condition: "fair", pickupLocation: Coordinate(lat: 52.371, lon: 4.89)))
            _ = try await zoe.listings.request(bobs.id, message: "Request from \(marker)")
            let list = try await zoe.lists.create(name: "List of \(marker)")
            _ = try await zoe.lists.addItem(list.id, text: "Item of \(marker)", note: "Note of \(marker)")

            // Every read model replayed and swapped in while Zoe exists.
            for service in ["accounts", "listings", "geo-search", "donations", "shopping-lists"] {
                try await replay(service, at: stack.gateway, token: adminTokens.accessToken)
            }
            try await zoe.accounts.deleteAccount()
            // Everyone has read the deletion before the files are looked at.
            for service in ["accounts", "listings", "geo-search", "donations", "shopping-lists"] {
                let position = try #require(positions.current)
                let answer = try await http(
                    .GET, "\(stack.gateway)/v1/admin/\(service)/projections",
                    headers: ["Authorization": "Bearer \(adminTokens.accessToken)", "Commons-Min-Position": position])
                #expect(answer.status == 200, "\(service): \(answer.status)")
            }

            let replaced = try await DataDirectoryScan.replacedReadModels(under: stack.dataDirectory)
            #expect(replaced.isEmpty, "read-model files a replay replaced are still on disk: \(replaced)")
            // From an offset that is a multiple of 3, as in the end-to-end check.
            let photoSlice = Data(served.dropFirst(served.count / 6 * 3).prefix(24))
            let files = DataDirectoryScan.files(under: stack.dataDirectory)
            #expect(files.contains { $0.path.hasSuffix("events.sqlite") }, "the log is scanned: \(files.map(\.path))")
            for file in files {
                for secret in [marker, email] {
                    #expect(file.bytes.range(of: Data(secret.utf8)) == nil, "\(secret) is still in \(file.path)")
                }
                #expect(file.bytes.range(of: photoSlice) == nil, "the photo's bytes are still in \(file.path)")
            }
        }
    }

    /// Replays `service`'s read model over the admin API and waits until it is swapped in.
    private func replay(_ service: String, at gateway: String, token: String) async throws {
        let authorization = ["Authorization": "Bearer \(token)"]
        let started = try await http(.POST, "\(gateway)/v1/admin/\(service)/replay", headers: authorization)
        #expect(started.status == 202, "\(service): \(started.status)")
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            let answer = try await http(.GET, "\(gateway)/v1/admin/\(service)/projections", headers: authorization)
            let replay = ((try? JSONSerialization.jsonObject(with: answer.body)) as? [String: Any])?["replay"] as? [String: Any]
            if let state = replay?["state"] as? String, state != "running" {
                #expect(state == "done", "\(service): \(replay ?? [:])")
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("the replay of \(service) did not finish within 120 s")
    }
}
