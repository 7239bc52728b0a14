import Contracts
import EventLog
import EventLogTestSupport
import Foundation
import ReadModel
import Testing

/// `commons events park`, `unpark` and `parked`, run as a process on both backends.
@Suite("commons events: parking")
struct EventsParkingTests {
    @Test("park records an event for a projection to skip, parked lists it, unpark takes it back", arguments: Backend.allCases)
    func parkAndUnpark(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let events = try await appendTestEvents(log, streams: ["order-1", "order-2"])
        let id = events[1].id.uuidString.lowercased()

        let none = try await commons("events", "parked", "order-totals", log: log)
        #expect(none.lines == ["no events parked for projection order-totals"], "\(none)")

        let park = try await commons("events", "park", "order-totals", id, "--reason", "total overflows", log: log)
        #expect(park.status == 0, "\(park)")
        #expect(park.stdout.hasPrefix("parked \(id) for projection order-totals at "))
        #expect(try await ProjectionParking.parked(for: "order-totals", in: log.store) == [events[1].id: "total overflows"])
        let parked = try await commons("events", "parked", "order-totals", log: log)
        #expect(parked.lines == ["\(id) total overflows"], "\(parked)")
        let metadata = try #require(try await log.store.read(stream: parkingStream(for: "order-totals")).last?.metadata)
        #expect(metadata.service == "commons")

        let unpark = try await commons("events", "unpark", "order-totals", id, log: log)
        #expect(unpark.status == 0, "\(unpark)")
        #expect(unpark.stdout.hasPrefix("unparked \(id) for projection order-totals at "))
        #expect(try await ProjectionParking.parked(for: "order-totals", in: log.store).isEmpty)
        await log.close()
    }

    @Test("parking an id the log does not hold, or unparking one that is not parked, fails with one line", arguments: Backend.allCases)
    func refusals(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let events = try await appendTestEvents(log, streams: ["order-1"])
        let missing = UUID().uuidString.lowercased()

        let park = try await commons("events", "park", "order-totals", missing, "--reason", "typo", log: log)
        #expect(park.status == 1)
        #expect(park.stderr == "Error: no event with id \(missing)\n")

        let id = events[0].id.uuidString.lowercased()
        let unpark = try await commons("events", "unpark", "order-totals", id, log: log)
        #expect(unpark.status == 1)
        #expect(unpark.stderr == "Error: event \(id) is not parked for projection order-totals\n")
        #expect(try await log.store.read(stream: parkingStream(for: "order-totals")).isEmpty)
        await log.close()
    }

    @Test("parking an account's deletion is refused with one line saying why", arguments: Backend.allCases)
    func unparkable(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let account = UUID()
        _ = try await log.store.append(
            to: "account-\(account.uuidString.lowercased())", expected: .any,
            events: [try EventCatalog.encode(AccountDeleted(accountId: account, deletedAt: Date()), metadata: EventMetadata())])
        let id = try #require(try await log.store.read(stream: "account-\(account.uuidString.lowercased())").last?.id).uuidString.lowercased()

        let park = try await commons("events", "park", "revocations", id, "--reason", "cannot apply", log: log)
        #expect(park.status == 1)
        #expect(park.stderr.hasPrefix("Error: AccountDeleted events cannot be parked: it erases an account"), "\(park)")
        #expect(park.stderr.split(separator: "\n").count == 1)
        #expect(try await log.store.read(stream: parkingStream(for: "revocations")).isEmpty)
        await log.close()
    }
}
