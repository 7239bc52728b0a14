import Crypto
import EventLog
import EventLogPostgres
import EventLogSQLite
import EventLogTestSupport
import Foundation
import Testing

/// `commons events export` and `import`, between the two backends.
@Suite("commons events: export and import")
struct EventsExportImportTests {
    /// Bodies that a careless round trip would change: nesting, escapes, non-ASCII text,
    /// slashes, and numbers beyond a Double's precision.
    private let awkwardBody = Data(
        #"""
        {"title": "Chair / \"oak\"\n", "tags": ["a", {"b": null}], "price": 19.99, "big": 12345678901234567890,
         "precise": 3.14159265358979323846, "tiny": 1e-7, "ok": true, "name": "Zoë ✓"}
        """#.utf8)

    @Test(
        "export, then import into a fresh log of the other backend, keeps order, ids and bodies; a second import finds all present",
        arguments: Backend.allCases)
    func roundTrip(backend: Backend) async throws {
        let source = try await backend.makeLog()
        _ = try await appendTestEvents(source, streams: ["order-1", "order-2", "order-1"])
        let metadata = EventMetadata(correlationId: "c-1", causationId: "e-0", actorId: "a-1", requestId: "r-1", service: "tests")
        try await appendVisibly(source, to: "listing-1", [NewEvent(type: "Awkward", data: awkwardBody, metadata: metadata)])
        _ = try await appendTestEvents(source, streams: ["order-3"])
        let events = try await allEvents(source.store)
        let file = try scratchDirectory().appendingPathComponent("events.ndjson").path

        let export = try await commons("events", "export", "--output", file, log: source)
        #expect(export.status == 0, "\(export)")
        #expect(export.stdout == "exported 0 blobs and 5 events to \(file)\n")

        let target = try await (backend == .sqlite ? Backend.postgres : .sqlite).makeLog()
        let first = try await commons("events", "import", file, log: target)
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout == "imported 5 events, 0 already present; 0 blobs, 0 already present\n")
        let imported = try await allEvents(target.store, atLeast: 5)
        #expect(imported.map(\.id) == events.map(\.id))
        #expect(imported.map(\.stream) == events.map(\.stream) && imported.map(\.version) == events.map(\.version))
        #expect(imported.map(\.metadata) == events.map(\.metadata))
        for (copy, original) in zip(imported, events) {
            #expect(EventJSON.sameValue(copy.data, original.data), "\(String(decoding: copy.data, as: UTF8.self))")
            #expect(abs(copy.recordedAt.timeIntervalSince(original.recordedAt)) < 0.000_002)
        }
        let precise = try #require(imported.first { $0.type == "Awkward" })
        #expect(String(decoding: precise.data, as: UTF8.self).contains("3.14159265358979323846"))
        #expect(String(decoding: precise.data, as: UTF8.self).contains("12345678901234567890"))

        let again = try await commons("events", "import", file, log: target)
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout == "imported 0 events, 5 already present; 0 blobs, 0 already present\n")
        #expect(try await allEvents(target.store, atLeast: 5).count == 5)
        await source.close()
        await target.close()
    }

    @Test("export --from and --to choose a range; import - reads stdin", arguments: Backend.allCases)
    func range(backend: Backend) async throws {
        let source = try await backend.makeLog()
        let events = try await appendTestEvents(source, streams: ["order-1", "order-2", "order-3", "order-4"])

        let export = try await commons(
            "events", "export", "--from", events[0].checkpoint.description, "--to", events[2].checkpoint.description, log: source)
        #expect(export.status == 0, "\(export)")
        let lines = try export.lines.map { try JSONDecoder().decode(ExportedEvent.self, from: Data($0.utf8)) }
        #expect(lines.map(\.id) == [events[1].id, events[2].id])

        let target = try await backend.makeLog()
        let imported = try await commons("events", "import", "-", log: target, stdin: Data(export.stdout.utf8))
        #expect(imported.stdout == "imported 2 events, 0 already present; 0 blobs, 0 already present\n", "\(imported)")
        #expect(try await allEvents(target.store, atLeast: 2).map(\.id) == [events[1].id, events[2].id])
        await source.close()
        await target.close()
    }

    @Test("import stops at a line that is not an exported event, and says which", arguments: Backend.allCases)
    func badLine(backend: Backend) async throws {
        let source = try await backend.makeLog()
        _ = try await appendTestEvents(source, streams: ["order-1", "order-2"])
        let export = try await commons("events", "export", log: source)
        let input = export.stdout + "\n" + #"{"position": 3, "stream": "order-3"}"# + "\n"

        let target = try await backend.makeLog()
        let result = try await commons("events", "import", "-", log: target, stdin: Data(input.utf8))

        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: line 4: not an exported event: missing \"checkpoint\""), "\(result)")
        #expect(try await allEvents(target.store, atLeast: 2).count == 2)
        await source.close()
        await target.close()
    }

    /// The blob store beside a test log, as the services open it.
    private func blobStore(of log: TestLog) throws -> any BlobStore {
        if let file = log.sqliteFile { return try SQLiteBlobStore(path: file + ".blobs") }
        guard let postgres = log.store as? PostgresEventStore else { throw TestSetupError("no blob store for \(type(of: log.store))") }
        return PostgresBlobStore(store: postgres)
    }

    @Test(
        "a backup carries the photos: export, restore into a fresh log of either kind, every photo byte for byte; twice changes nothing",
        arguments: Backend.allCases, Backend.allCases)
    func photosTravel(from: Backend, to: Backend) async throws {
        let source = try await from.makeLog()
        let owner = UUID(), other = UUID()
        var photos: [Blob] = []
        for index in 0..<70 { // more than one page of the export's blob reader
            var bytes = [UInt8](repeating: 0, count: 3_000 + index)
            for position in bytes.indices { bytes[position] = UInt8(truncatingIfNeeded: position &* 31 &+ index) }
            let address = sha256(bytes)
            let owners = index == 0 ? [owner, other].sorted { $0.uuidString < $1.uuidString } : [owner]
            for who in owners { try await blobStore(of: source).put(bytes, at: address, contentType: "image/jpeg", owner: who) }
            photos.append(Blob(address: address, contentType: "image/jpeg", bytes: bytes, owners: owners))
        }
        _ = try await appendTestEvents(source, streams: ["image-1", "image-2"])
        let file = try scratchDirectory().appendingPathComponent("backup.ndjson").path

        let export = try await commons("events", "export", "--output", file, log: source)
        #expect(export.status == 0, "\(export)")
        #expect(export.stdout == "exported 70 blobs and 2 events to \(file)\n")
        let target = try await to.makeLog()
        let restore = try await commons("events", "import", file, log: target)
        #expect(restore.status == 0, "\(restore)")
        #expect(restore.stdout == "imported 2 events, 0 already present; 70 blobs, 0 already present\n")
        let restored = try blobStore(of: target)
        for photo in photos {
            let copy = try await restored.get(photo.address)
            #expect(copy?.bytes == photo.bytes && copy?.contentType == photo.contentType)
        }
        let all = try await restored.blobs(after: nil, limit: 100)
        #expect(Set(all.map(\.address)) == Set(photos.map(\.address)))
        #expect(Set(all.first { $0.address == photos[0].address }?.owners ?? []) == Set(photos[0].owners))

        let again = try await commons("events", "import", file, log: target)
        #expect(again.stdout == "imported 0 events, 2 already present; 0 blobs, 70 already present\n")
        #expect(try await restored.blobs(after: nil, limit: 100).count == 70)
        // A range of the log carries no photos unless asked to.
        let range = try await commons("events", "export", "--from", "0", log: source)
        #expect(!range.stdout.contains(#"{"blob""#))
        await source.close()
        await target.close()
    }

    @Test("a blob line whose bytes do not hash to its address is refused")
    func tamperedBlob() async throws {
        let target = try await Backend.sqlite.makeLog()
        let line = #"{"blob":"\#(String(repeating: "ab", count: 32))","bytes":"aGVsbG8=","contentType":"image/jpeg","owners":[]}"#
        let result = try await commons("events", "import", "-", log: target, stdin: Data((line + "\n").utf8))
        #expect(result.status == 1)
        #expect(result.stderr.contains("do not hash to it"), "\(result)")
        #expect(try await blobStore(of: target).blobs(after: nil, limit: 10).isEmpty)
        await target.close()
    }

    private func sha256(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }
}
