import EventLog
import EventLogTestSupport
import Foundation
import Synchronization
import Testing

@testable import EventLogPostgres

/// Group commit (issue 17): single-event appends that wait for a slot go in one statement.
@Suite("PostgreSQL group commit")
struct AppendGroupTests {
    /// What an append answered, comparable across the cases below.
    enum Answer: Equatable, Sendable {
        case appended(version: Int64, replayed: Bool)
        case wrongExpectedVersion(actual: Int64)
        case invalidEvent
        case other(String)
    }

    @Test("appends that wait for the slot go in groups, and each gets the answer it would have had alone")
    func groupedAppendsAnswerAsAlone() async throws {
        var configuration = try Backend.freshSchema()
        configuration.concurrentAppends = 1
        let store = try await PostgresEventStore(configuration: configuration)
        let earlier = (0..<8).map { testEvent("Earlier", ["n": $0]) }
        var earlierPositions: [Int64] = []
        for (index, event) in earlier.enumerated() {
            earlierPositions.append(try await store.append(to: "earlier-\(index)", expected: .noStream, events: [event]).checkpoint.position)
        }
        // A body PostgreSQL refuses (a NUL character) fails the whole group statement it is in.
        let refused = NewEvent(id: UUID(), type: "Refused", data: Data(#"{"text":"\u0000"}"#.utf8), metadata: EventMetadata(service: "tests"))

        // The test takes the one slot, so every append below waits for it and goes in a group,
        // however its task happens to be scheduled.
        guard case .slot = await store.grouper.admit(try Self.append("held-1")) else { throw TestSetupError("the free slot was not taken") }
        let positions = earlierPositions
        let answers = try await withThrowingTaskGroup(of: (String, Answer).self) { group in
            func add(_ key: String, _ stream: String, _ expected: ExpectedVersion, _ event: NewEvent) {
                group.addTask {
                    do {
                        let result = try await store.append(to: stream, expected: expected, events: [event])
                        if result.wasAlreadyAppended, let index = Int(stream.dropFirst("earlier-".count)) {
                            #expect(result.checkpoint.position == positions[index])
                        }
                        return (key, .appended(version: result.streamVersion, replayed: result.wasAlreadyAppended))
                    } catch EventStoreError.wrongExpectedVersion(_, _, let actual) {
                        return (key, .wrongExpectedVersion(actual: actual))
                    } catch EventStoreError.invalidEvent {
                        return (key, .invalidEvent)
                    } catch {
                        return (key, .other("\(error)"))
                    }
                }
            }
            for index in 0..<40 { add("fresh-\(index)", "fresh-\(index)", .noStream, testEvent("Fresh")) }
            for index in 0..<8 { add("earlier-\(index)", "earlier-\(index)", .noStream, earlier[index]) }
            for index in 0..<8 { add("taken-\(index)", "earlier-\(index)", .noStream, testEvent("Taken")) }
            for index in 0..<8 { add("wrong-\(index)", "wrong-\(index)", .exact(3), testEvent("Wrong")) }
            for index in 0..<8 { add("shared-\(index)", "shared-1", .any, testEvent("Shared", ["n": index])) }
            add("refused", "refused-1", .any, refused)
            do {
                try await waitFor("every append to wait for the slot") { store.grouper.waitingAppends == 40 + 4 * 8 + 1 }
            } catch {
                Issue.record(error)
            }
            // Either way: appends left waiting for the slot would never end.
            store.grouper.release()
            var answers: [String: Answer] = [:]
            for try await (key, answer) in group { answers[key] = answer }
            return answers
        }

        #expect(store.grouper.groupsSent > 0)
        for index in 0..<40 { #expect(answers["fresh-\(index)"] == .appended(version: 1, replayed: false)) }
        for index in 0..<8 { #expect(answers["earlier-\(index)"] == .appended(version: 1, replayed: true)) }
        // A new event for a stream that exists already: the group does not look for its head.
        for index in 0..<8 { #expect(answers["taken-\(index)"] == .wrongExpectedVersion(actual: 1)) }
        for index in 0..<8 { #expect(answers["wrong-\(index)"] == .wrongExpectedVersion(actual: 0)) }
        let sharedVersions = (0..<8).compactMap { index -> Int64? in
            if case .appended(let version, false) = answers["shared-\(index)"] { return version }
            return nil
        }
        #expect(sharedVersions.sorted() == Array(1...8))
        #expect(answers["refused"] == .invalidEvent)

        // The log holds each event once, in one order every reader sees (once other tests'
        // open transactions on the cluster no longer hold delivery back).
        let events = try await collect(store.subscribe(), timeout: .seconds(30)) { $0.count >= 8 + 40 + 8 }
        #expect(events.count == 8 + 40 + 8)
        #expect(Set(events.map(\.id)).count == events.count)
        #expect(events.map(\.checkpoint) == events.map(\.checkpoint).sorted())
        #expect(try await store.read(stream: "shared-1").map(\.version) == Array(1...8))
        await store.shutdown()
    }

    @Test("free slots admit at once; an append that finds none waits until one is released, then takes it")
    func slotsAdmitAndWait() async throws {
        let grouper = AppendGrouper(slots: 2) { _ in
            Issue.record("no group forms from a single waiting append")
            return []
        }
        #expect(grouper.isOnlyAppend, "no append yet")
        for stream in ["slot-1", "slot-2"] {
            guard case .slot = await grouper.admit(try Self.append(stream)) else { Issue.record("a free slot was not taken"); return }
        }
        #expect(!grouper.isOnlyAppend, "two appends hold slots")
        for stream in ["slot-3", "slot-4"] {
            let next = try Self.append(stream)
            let admitted = Flag()
            let waiting = Task {
                let admission = await grouper.admit(next)
                admitted.raise()
                return admission
            }
            try await waitFor("\(stream) to wait") { grouper.waitingAppends == 1 }
            #expect(!admitted.isRaised, "\(stream) waits while both slots are busy")
            grouper.release()
            guard case .slot = await waiting.value else { Issue.record("the released slot did not pass to \(stream)"); return }
        }
        #expect(grouper.groupsSent == 0)
        grouper.release()
        #expect(grouper.isOnlyAppend, "one append holds a slot and none waits")
    }

    /// A single-event append to `stream`, as the store hands it to its grouper.
    private static func append(_ stream: String) throws -> GroupedAppend {
        GroupedAppend(stream: stream, category: RecordedEvent.category(of: stream), expectedCode: -1, batch: try EncodedBatch([testEvent()]))
    }
}

/// A flag one task raises and another reads.
private final class Flag: Sendable {
    private let raised = Atomic<Bool>(false)
    func raise() { raised.store(true, ordering: .sequentiallyConsistent) }
    var isRaised: Bool { raised.load(ordering: .sequentiallyConsistent) }
}
