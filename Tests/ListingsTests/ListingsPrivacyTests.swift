import Contracts
import EventLog
import EventLogTestSupport
import Foundation
import GRDB
import ListingsService
import ReadModel
import ServiceKit
import Testing

@Suite("listings privacy")
struct ListingsPrivacyTests {
    /// Texts that must never be shown to anyone but the owner and the promised requester.
    static let secrets = [
        ListingsFixtures.address, "Prinsengracht", String(ListingsFixtures.exactLat), String(ListingsFixtures.exactLon),
        "52.374519", "4.883917",
    ]

    static func leaks(_ text: String) -> [String] { secrets.filter { text.contains($0) } }

    @Test("no public response, feed, search, change feed or event carries the exact place or the address", arguments: Backend.allCases)
    func noLeaks(backend: Backend) async throws {
        try await ListingsHarness(backend: backend).test { client in
            let (owner, asker, other) = (try await client.person(), try await client.person(), try await client.person())
            let (id, _, created) = try await client.post(as: owner)
            _ = try await client.call(
                .patch, "/v1/listings/\(id)", as: owner, json: ["description": "Oak, near Prinsengracht? no: secret"],
                headers: [.ifMatch: created.etag!])
            let request = try await client.call(.post, "/v1/listings/\(id)/requests", as: asker, json: ["message": "Can I come by?"])
            let promised = try await client.call(
                .post, "/v1/listings/\(id)/promise", as: owner, json: ["requestId": request.json["id"] as? String ?? ""])
            let position = promised.position

            // The description mentions the street on purpose; it is the owner's public text, so search for it is skipped here.
            let publicAnswers = [
                try await client.get("/v1/listings/\(id)", after: position),
                try await client.get("/v1/listings/\(id)", as: other, after: position),
                try await client.get("/v1/listings?status=available,promised", after: position),
                try await client.get("/v1/listings?q=oak&status=promised", as: other, after: position),
                try await client.get("/v1/listings/changes", after: position),
            ]
            for answer in publicAnswers {
                #expect(answer.status == .ok)
                #expect(Self.leaks(answer.text.replacingOccurrences(of: "Oak, near Prinsengracht? no: secret", with: "")).isEmpty, "\(answer.text)")
            }
            #expect(try await client.items("/v1/listings?q=oak&status=promised", after: nil).ids == [id])

            // The log: nothing in clear, in any event of any stream.
            var checkpoint = Checkpoint.start
            while true {
                let page = try await client.runtime.store.readAll(after: checkpoint, limit: 1_000, filter: .all)
                for event in page.events {
                    let body = String(decoding: event.data, as: UTF8.self).replacingOccurrences(of: "Oak, near Prinsengracht? no: secret", with: "")
                    #expect(Self.leaks(body).isEmpty, "\(event.type): \(body)")
                    #expect(!body.contains("Can I come by"))
                }
                if page.events.isEmpty { break }
                checkpoint = page.checkpoint
            }
        }
    }

    @Test(
        """
        a listing's title, description and pickup note are sealed in the log, and open for the listing, the feed and search; \
        a rebuild opens them with the key vault, refuses without one, and reads them as empty once the owner's key is gone
        """, arguments: Backend.allCases)
    func sealedText(backend: Backend) async throws {
        try await ListingsHarness(backend: backend).test { client in
            let owner = try await client.person()
            var fields = ListingsFixtures.listing
            (fields["title"], fields["description"], fields["pickupTimes"]) = ("Walnut bureau", "Dovetailed drawers", ["note": "Sundays at noon"])
            let (id, _, created) = try await client.post(fields, as: owner)
            let edited = try await client.call(
                .patch, "/v1/listings/\(id)", as: owner, json: ["title": "Walnut bureau, restored"],
                headers: [.ifMatch: created.etag!])
            #expect(edited.status == .ok, "\(edited.text)")
            let shown = try await client.get("/v1/listings/\(id)", after: edited.position)
            #expect(shown.json["title"] as? String == "Walnut bureau, restored")
            #expect(shown.json["description"] as? String == "Dovetailed drawers")
            #expect((shown.json["pickupTimes"] as? [String: Any])?["note"] as? String == "Sundays at noon")
            #expect(try await client.items("/v1/listings?q=walnut", after: edited.position).ids == [id])
            #expect(try await client.items("/v1/listings?q=dovetailed", after: nil).ids == [id])

            let events = try await client.runtime.store.read(stream: "listing-\(id)")
            #expect(events.contains { $0.type == "ListingEdited" })
            for event in events {
                let body = String(decoding: event.data, as: UTF8.self)
                for word in ["Walnut", "Dovetailed", "Sundays"] { #expect(!body.contains(word), "\(event.type): \(body)") }
            }

            func rebuiltTitle(keys: (any KeyVault)?) async throws -> String? {
                let path = FileManager.default.temporaryDirectory.appendingPathComponent("rebuild-\(UUID()).sqlite").path
                try await ReadModelRebuild.rebuild(projections: ListingsService.projections, from: client.runtime.store, into: path, keys: keys)
                let rebuilt = try DatabaseQueue(path: path)
                defer { try? rebuilt.close() }
                return try await rebuilt.read { db in
                    try String.fetchOne(
                        db, sql: "SELECT title || '|' || description || '|' || pickup_times FROM listings WHERE listing_id = ?",
                        arguments: [id])
                }
            }
            let opened = try await rebuiltTitle(keys: client.runtime.keyVault)
            #expect(
                opened?.hasPrefix("Walnut bureau, restored|Dovetailed drawers|") == true && opened?.contains("Sundays at noon") == true,
                "\(opened ?? "no row")")
            let refused = await #expect(throws: ProjectionFailure.self) { _ = try await rebuiltTitle(keys: nil) }
            #expect(refused?.reason.contains("without the key vault") == true, "\(refused.map { "\($0)" } ?? "")")
            try await client.runtime.keyVault.destroyKey(for: owner.id)
            let unreadable = try await rebuiltTitle(keys: client.runtime.keyVault)
            #expect(unreadable?.hasPrefix("||") == true && unreadable?.contains("Sundays") == false, "\(unreadable ?? "no row")")
        }
    }

    @Test("a deleted account's listings and requests disappear, and its sealed place cannot be opened", arguments: Backend.allCases)
    func accountDeletion(backend: Backend) async throws {
        try await ListingsHarness(backend: backend).test { client in
            let (owner, asker) = (try await client.person(), try await client.person())
            let (id, _, _) = try await client.post(as: owner)
            let (kept, _, _) = try await client.post(["title": "Lamp"], as: asker)
            let request = try await client.call(.post, "/v1/listings/\(kept)/requests", as: owner, json: ["message": "Is it still there?"])
            #expect(request.status == .created)

            // What accounts does on deletion: destroy the key, then append AccountDeleted.
            try await client.runtime.keyVault.destroyKey(for: owner.id)
            let deleted = try await client.runtime.store.append(
                to: "account-\(owner.id.uuidString.lowercased())", expected: .any,
                events: [
                    try EventCatalog.encode(AccountDeleted(accountId: owner.id, deletedAt: Date()))
                ])
            let position = deleted.checkpoint.description
            #expect((try await client.get("/v1/listings/\(id)", after: position)).status == .notFound)
            #expect(try await client.items("/v1/listings", after: nil).ids == [kept])
            #expect(try await client.items("/v1/listings/\(kept)/requests", as: asker, after: nil).isEmpty)
            let changes = try await client.items("/v1/listings/changes", after: nil)
            #expect(changes.last?["kind"] as? String == "removed")
            #expect(changes.last?["listingId"] as? String == id)
        }
    }
}
