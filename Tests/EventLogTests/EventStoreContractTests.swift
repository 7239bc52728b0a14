import EventLog
import EventLogTestSupport
import Foundation
import Synchronization
import Testing

/// The event-log contract (DESIGN.md §2), run against PostgreSQL and the SQLite file store.
@Suite("event store contract", .serialized)
struct EventStoreContractTests {
    @Test("appends number a stream's events from 1 and read them back both ways", arguments: Backend.logBackends)
    func appendAndReadStream(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let store = log.store
        let first = try await store.append(to: "listing-1", expected: .noStream, events: [testEvent("A"), testEvent("B")])
        let second = try await store.append(to: "listing-1", expected: .exact(2), events: [testEvent("C")])
        #expect(first.streamVersion == 2)
        #expect(second.streamVersion == 3)
        #expect(second.checkpoint > first.checkpoint)

        let forwards = try await store.read(stream: "listing-1", from: nil, direction: .forwards, limit: 10)
        #expect(forwards.map(\.type) == ["A", "B", "C"])
        #expect(forwards.map(\.version) == [1, 2, 3])
        #expect(forwards.allSatisfy { $0.stream == "listing-1" && $0.metadata.service == "tests" })
        let backwards = try await store.read(stream: "listing-1", from: nil, direction: .backwards, limit: 2)
        #expect(backwards.map(\.type) == ["C", "B"])
        let fromTwo = try await store.read(stream: "listing-1", from: 2, direction: .forwards, limit: 10)
        #expect(fromTwo.map(\.version) == [2, 3])
        #expect(try await store.read(stream: "listing-404").isEmpty)
        #expect(try await store.event(id: forwards[1].id)?.type == "B")
        // head() is what readers can see: on PostgreSQL another test's open transaction may
        // hold it back for a while, never past our own last event.
        var head = try await store.head()
        for _ in 0..<300 where head != second.checkpoint {
            #expect(head < second.checkpoint)
            try await Task.sleep(for: .milliseconds(100))
            head = try await store.head()
        }
        #expect(head == second.checkpoint)
        await log.close()
    }

    @Test("the log has reached every checkpoint an append answered, and none beyond its end", arguments: Backend.logBackends)
    func reached(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let store = log.store
        let first = try await store.append(to: "listing-1", expected: .noStream, events: [testEvent("A")])
        let second = try await store.append(to: "listing-2", expected: .noStream, events: [testEvent("B")])
        // At once, whether or not a reader sees them yet.
        #expect(try await store.hasReached(first.checkpoint))
        #expect(try await store.hasReached(second.checkpoint))
        #expect(try await store.hasReached(.start))
        let beyond = [
            Checkpoint(transaction: second.checkpoint.transaction, position: second.checkpoint.position + 1_000),
            Checkpoint(transaction: 91_200_118_350_606_550, position: 81),
        ]
        for checkpoint in beyond { #expect(try await store.hasReached(checkpoint) == false, "\(checkpoint)") }
        await log.close()
    }

    @Test("a mismatched expected version fails with the actual version and writes nothing", arguments: Backend.logBackends)
    func expectedVersions(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let store = log.store
        await #expect(throws: EventStoreError.wrongExpectedVersion(stream: "account-1", expected: .streamExists, actual: 0)) {
            try await store.append(to: "account-1", expected: .streamExists, events: [testEvent()])
        }
        await #expect(throws: EventStoreError.wrongExpectedVersion(stream: "account-1", expected: .exact(3), actual: 0)) {
            try await store.append(to: "account-1", expected: .exact(3), events: [testEvent()])
        }
        _ = try await store.append(to: "account-1", expected: .noStream, events: [testEvent()])
        await #expect(throws: EventStoreError.wrongExpectedVersion(stream: "account-1", expected: .noStream, actual: 1)) {
            try await store.append(to: "account-1", expected: .noStream, events: [testEvent()])
        }
        await #expect(throws: EventStoreError.wrongExpectedVersion(stream: "account-1", expected: .exact(0), actual: 1)) {
            try await store.append(to: "account-1", expected: .exact(0), events: [testEvent()])
        }
        _ = try await store.append(to: "account-1", expected: .streamExists, events: [testEvent()])
        _ = try await store.append(to: "account-1", expected: .any, events: [testEvent()])
        #expect(try await store.version(of: "account-1") == 3)
        await #expect(throws: EventStoreError.invalidStreamName("nodash")) {
            try await store.append(to: "nodash", expected: .any, events: [testEvent()])
        }
        await log.close()
    }

    @Test("a batch is atomic: one bad event writes none of it", arguments: Backend.logBackends)
    func atomicBatch(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let bad = NewEvent(type: "Bad", data: Data("[1, 2]".utf8))
        await #expect(throws: EventStoreError.self) {
            try await log.store.append(to: "list-1", expected: .any, events: [testEvent(), bad, testEvent()])
        }
        let broken = NewEvent(type: "Broken", data: Data("{\"a\": ".utf8))
        await #expect(throws: (any Error).self) {
            try await log.store.append(to: "list-1", expected: .any, events: [testEvent(), broken])
        }
        #expect(try await log.store.read(stream: "list-1").isEmpty)
        #expect(try await log.store.head() == .start)
        await log.close()
    }

    @Test("re-appending the same batch returns the first result; partial or changed retries fail", arguments: Backend.logBackends)
    func idempotentRetries(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let store = log.store
        let batch = [testEvent("A", ["n": 1]), testEvent("B", ["n": 2])]
        let first = try await store.append(to: "wallet-1", expected: .noStream, events: batch)
        let retry = try await store.append(to: "wallet-1", expected: .noStream, events: batch)
        #expect(retry.streamVersion == first.streamVersion)
        #expect(retry.checkpoint == first.checkpoint)
        #expect(retry.wasAlreadyAppended)
        #expect(!first.wasAlreadyAppended)

        // A retry that matches only part of the earlier batch never appends the rest.
        let partial = [batch[1], testEvent("C")]
        await #expect(throws: EventStoreError.self) {
            try await store.append(to: "wallet-1", expected: .any, events: partial)
        }
        // The same id with another body is an error too.
        let changed = NewEvent(id: batch[0].id, type: "A", data: Data("{\"n\":99}".utf8))
        await #expect(throws: EventStoreError.self) {
            try await store.append(to: "wallet-1", expected: .any, events: [changed, batch[1]])
        }
        // ...and so is the same batch in another stream.
        await #expect(throws: EventStoreError.self) {
            try await store.append(to: "wallet-2", expected: .any, events: batch)
        }
        #expect(try await store.read(stream: "wallet-1").map(\.type) == ["A", "B"])
        #expect(try await store.read(stream: "wallet-2").isEmpty)
        await log.close()
    }

    @Test(
        "a new stream's first event: a retry returns the first result, a second first event is refused, and 20 at once make one",
        arguments: Backend.logBackends)
    func firstEventOfAStream(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let store = log.store
        let event = testEvent("Opened")
        let first = try await store.append(to: "first-1", expected: .noStream, events: [event])
        #expect(first.streamVersion == 1 && !first.wasAlreadyAppended)
        let retry = try await store.append(to: "first-1", expected: .exact(0), events: [event])
        #expect(retry.wasAlreadyAppended && retry.checkpoint == first.checkpoint && retry.streamVersion == 1)

        await #expect(throws: EventStoreError.wrongExpectedVersion(stream: "first-1", expected: .noStream, actual: 1)) {
            try await store.append(to: "first-1", expected: .noStream, events: [testEvent()])
        }
        await #expect(throws: EventStoreError.wrongExpectedVersion(stream: "first-1", expected: .exact(0), actual: 1)) {
            try await store.append(to: "first-1", expected: .exact(0), events: [testEvent()])
        }
        // The same event as the first of another stream is not a retry.
        await #expect(throws: EventStoreError.self) {
            try await store.append(to: "first-2", expected: .noStream, events: [event])
        }
        #expect(try await store.version(of: "first-2") == 0)

        #expect(try await Self.race(store, stream: "first-race", expected: .noStream, loserSees: 1) == 1)
        #expect(try await store.read(stream: "first-race").count == 1)
        #expect(try await store.read(stream: "first-1").map(\.id) == [event.id])
        await log.close()
    }

    @Test("20 concurrent appends at the same expected version: exactly one succeeds", arguments: Backend.logBackends)
    func concurrentExpectedVersion(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let store = log.store
        _ = try await store.append(to: "listing-race", expected: .noStream, events: [testEvent()])
        #expect(try await Self.race(store, stream: "listing-race", expected: .exact(1), loserSees: 2) == 1)
        #expect(try await store.version(of: "listing-race") == 2)
        await log.close()
    }

    @Test("8 writers × 2,000 events with 2 live subscribers: each sees every event once, in stream order", arguments: Backend.logBackends)
    func concurrentWritersAndSubscribers(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let store = log.store
        let writers = 8, perWriter = 2_000
        let total = writers * perWriter
        let subscribers = (0..<2).map { _ in
            // The bound covers the writing too: 16,000 appends took 60 s here beside a release
            // build, and over 120 s beside a build and five other suites.
            Task { try await collect(store.subscribe(), timeout: .seconds(240)) { $0.count >= total } }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    for n in 1...perWriter {
                        _ = try await store.append(to: "load-\(writer)", expected: .exact(Int64(n - 1)), events: [testEvent("Loaded", ["n": n])])
                    }
                }
            }
            try await group.waitForAll()
        }
        for subscriber in subscribers {
            let seen = try await subscriber.value
            #expect(seen.count == total)
            #expect(Set(seen.map(\.id)).count == total)
            let checkpoints = seen.map(\.checkpoint)
            #expect(checkpoints == checkpoints.sorted())
            for writer in 0..<writers {
                let versions = seen.filter { $0.stream == "load-\(writer)" }.map(\.version)
                #expect(versions == (1...Int64(perWriter)).map { $0 })
            }
        }
        await log.close()
    }

    @Test("a writer that holds its transaction for 10 s is delivered, once", arguments: Backend.logBackends)
    func longTransaction(backend: Backend) async throws {
        let log = try await backend.makeLog(holdsTransactions: true)
        let store = log.store
        _ = try await store.append(to: "before-1", expected: .any, events: [testEvent("Before")])
        let held = testEvent("Held")
        let holder = await log.holdTransaction(stream: "held-1", events: [held], hold: .seconds(10))
        // On PostgreSQL this commits at once, on a later transaction id; on SQLite it waits for the lock.
        let after = Task { try await store.append(to: "after-1", expected: .any, events: [testEvent("After")]) }
        let seen = try await collect(store.subscribe(), timeout: .seconds(40)) { $0.count >= 3 }
        try await holder.value
        _ = try await after.value
        #expect(seen.map(\.type) == ["Before", "Held", "After"])
        // And nothing more arrives for it afterwards: read everything again from the start.
        let everything = try await store.readAll(after: .start, limit: 100, filter: .all)
        #expect(everything.events.filter { $0.id == held.id }.count == 1)
        await log.close()
    }

    @Test(
        "a page reaches the head only when it holds everything stored, and a live follower then wakes for the next append, not its poll",
        arguments: Backend.logBackends)
    func reachingTheHead(backend: Backend) async throws {
        // Polls an hour apart, on a cluster of its own (no other test's transaction holds the
        // log back): only a wake-up can deliver the later appends within the minute allowed.
        let log = try await backend.makeLog(pollInterval: .seconds(3_600), holdsTransactions: true)
        let store = log.store
        for number in 1...3 { _ = try await store.append(to: "head-\(number)", expected: .any, events: [testEvent("Early")]) }
        let full = try await store.readAll(after: .start, limit: 3, filter: .all)
        #expect(full.events.count == 3)
        #expect(!full.reachedHead, "a full page cannot know what lies after it")
        let whole = try await store.readAll(after: .start, limit: 10, filter: .all)
        #expect(whole.reachedHead && whole.events.count == 3)
        let past = try await store.readAll(after: whole.checkpoint, limit: 10, filter: .all)
        #expect(past.reachedHead && past.events.isEmpty)

        // Appended once the follower has read the first three: by this process, then (on
        // PostgreSQL, whose notifications reach other processes) by another.
        let other = try await log.independentStore()
        let appenders = backend.isPostgreSQL ? [store, other] : [store]
        let appended = Mutex(0)
        let seen = try await collect(store.subscribe(filter: .categories("head"), pageSize: 10), timeout: .seconds(60)) { seen in
            let next = appended.withLock { count -> Int? in
                guard seen.count == 3 + count, count < appenders.count else { return nil }
                count += 1
                return count
            }
            if let next {
                Task {
                    try await Task.sleep(for: .milliseconds(200))
                    _ = try await appenders[next - 1].append(to: "head-\(3 + next)", expected: .any, events: [testEvent("Live")])
                }
            }
            return seen.count == 3 + appenders.count
        }
        #expect(seen.map(\.stream) == (1...(3 + appenders.count)).map { "head-\($0)" })
        await other.shutdown()
        await log.close()
    }

    @Test(
        "an append held back by a transaction that writes no event is delivered soon after it ends, not at the next poll",
        arguments: Backend.logBackends.filter(\.isPostgreSQL))
    func heldBackByATransactionWithoutEvents(backend: Backend) async throws {
        // Polls an hour apart, on a cluster of its own: only reading again soon can deliver it.
        let log = try await backend.makeLog(pollInterval: .seconds(3_600), holdsTransactions: true)
        let store = log.store
        _ = try await store.append(to: "early-1", expected: .any, events: [testEvent("Early")])
        let subscription = Task { try await collect(store.subscribe(), timeout: .seconds(30)) { $0.count >= 2 } }
        // The follower has read the first event and waits at the head.
        try await Task.sleep(for: .milliseconds(300))
        let holder = try await log.holdTransactionWithoutEvents(hold: .milliseconds(300))
        // Its wake-up finds this append held back behind the open transaction.
        _ = try await store.append(to: "late-1", expected: .any, events: [testEvent("Late")])
        try await holder.value
        let seen = try await subscription.value
        #expect(seen.map(\.type) == ["Early", "Late"])
        await log.close()
    }

    @Test("a rolled-back transaction leaves a hole that never stalls readers", arguments: Backend.logBackends)
    func rolledBackTransaction(backend: Backend) async throws {
        let log = try await backend.makeLog(holdsTransactions: true)
        let store = log.store
        try await log.appendInTransaction(stream: "ghost-1", events: [testEvent("Ghost")], hold: .milliseconds(200), commit: false)
        _ = try await store.append(to: "real-1", expected: .any, events: [testEvent("Real")])
        let seen = try await collect(store.subscribe(), timeout: .seconds(10)) { $0.count >= 1 }
        #expect(seen.map(\.type) == ["Real"])
        #expect(try await store.read(stream: "ghost-1").isEmpty)
        await log.close()
    }

    @Test("appends by another process are delivered even when notifications are lost", arguments: Backend.logBackends)
    func lostNotifications(backend: Backend) async throws {
        let log = try await backend.makeLog(pollInterval: .milliseconds(300))
        let other = try await log.independentStore()
        let subscription = Task { try await collect(log.store.subscribe(), timeout: .seconds(20)) { $0.count >= 2 } }
        _ = try await other.append(to: "remote-1", expected: .any, events: [testEvent("First")])
        try await Task.sleep(for: .milliseconds(500))
        try await log.dropListenConnections()
        _ = try await other.append(to: "remote-1", expected: .any, events: [testEvent("Second")])
        let seen = try await subscription.value
        #expect(seen.map(\.type) == ["First", "Second"])
        await other.shutdown()
        await log.close()
    }

    @Test("a filter that matches nothing for a long stretch never moves past an event that is not yet visible", arguments: Backend.logBackends)
    func longNonMatchingStretch(backend: Backend) async throws {
        let log = try await backend.makeLog(holdsTransactions: true)
        let store = log.store
        let wanted = EventFilter(categories: ["wanted"])
        let held = testEvent("WantedLate")
        let holder = await log.holdTransaction(stream: "wanted-late", events: [held], hold: .seconds(3))
        for n in 0..<20 {
            _ = try await store.append(to: "noise-\(n)", expected: .any, events: (0..<100).map { _ in testEvent("Noise") })
        }
        // Read what is visible now, as a restarting reader would, and keep its checkpoint.
        var checkpoint = Checkpoint.start
        var seen: [RecordedEvent] = []
        while true {
            let page = try await store.readAll(after: checkpoint, limit: 50, filter: wanted)
            seen += page.events
            if page.checkpoint == checkpoint { break }
            checkpoint = page.checkpoint
        }
        try await holder.value
        _ = try await store.append(to: "wanted-next", expected: .any, events: [testEvent("WantedNext")])
        // Restart from the stored checkpoint: the held event must still come, exactly once.
        let resumed = try await collect(store.subscribe(after: checkpoint, filter: wanted), timeout: .seconds(20)) {
            $0.contains { $0.type == "WantedNext" }
        }
        let all = seen + resumed
        #expect(all.filter { $0.id == held.id }.count == 1)
        #expect(all.map(\.type).filter { $0 == "Noise" }.isEmpty)
        #expect(all.last?.type == "WantedNext")
        await log.close()
    }

    @Test("a filter on several categories pages through their events in log order, and no others", arguments: Backend.logBackends)
    func severalCategoriesInOrder(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let store = log.store
        var generator = SystemRandomNumberGenerator()
        for n in 0..<120 {
            let category = ["apple", "pear", "plum", "noise"].randomElement(using: &generator)!
            _ = try await store.append(
                to: "\(category)-\(n % 7)", expected: .any,
                events: (0..<Int.random(in: 1...3, using: &generator)).map { _ in testEvent(category) })
        }
        let everything = try await store.readAll(after: .start, limit: 1_000, filter: .all).events
        let expected = everything.filter { ["apple", "pear", "plum"].contains($0.category) }.map(\.id)
        #expect(expected.count > 20)
        var checkpoint = Checkpoint.start
        var read: [RecordedEvent] = []
        while true {
            let page = try await store.readAll(after: checkpoint, limit: 7, filter: EventFilter(categories: ["plum", "apple", "pear"]))
            #expect(page.events.count <= 7)
            read += page.events
            if page.events.isEmpty { break }
            checkpoint = page.checkpoint
        }
        #expect(read.map(\.id) == expected)
        let pears = try await store.readAll(after: .start, limit: 1_000, filter: EventFilter(categories: ["pear", "apple"], types: ["pear"]))
        #expect(pears.events.map(\.id) == everything.filter { $0.type == "pear" }.map(\.id))
        await log.close()
    }

    @Test("reading the whole log backwards pages from the newest event down, in reverse log order, filtered alike", arguments: Backend.logBackends)
    func readAllBackwards(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let store = log.store
        _ = try await store.append(to: "listing-1", expected: .noStream, events: [testEvent("A"), testEvent("B")])
        _ = try await store.append(to: "account-1", expected: .noStream, events: [testEvent("C")])
        _ = try await store.append(to: "listing-2", expected: .noStream, events: [testEvent("D")])
        _ = try await store.append(to: "account-2", expected: .noStream, events: [testEvent("E")])
        let forwards = try await settledEvents(of: store)
        #expect(forwards.map(\.type) == ["A", "B", "C", "D", "E"])

        var pages: [[String]] = []
        var before: Checkpoint?
        while true {
            let page = try await store.readAllBackwards(before: before, limit: 2, filter: .all)
            #expect(page.count <= 2)
            guard let last = page.last else { break }
            pages.append(page.map(\.type))
            before = last.checkpoint
        }
        #expect(pages == [["E", "D"], ["C", "B"], ["A"]])
        #expect(try await store.readAllBackwards(before: nil, limit: 10, filter: .all).map(\.id) == forwards.reversed().map(\.id))
        #expect(try await store.readAllBackwards(before: forwards[2].checkpoint, limit: 10, filter: .all).map(\.type) == ["B", "A"])
        #expect(try await store.readAllBackwards(before: .start, limit: 10, filter: .all).isEmpty)
        #expect(try await store.readAllBackwards(before: nil, limit: 10, filter: .categories("listing")).map(\.type) == ["D", "B", "A"])
        #expect(try await store.readAllBackwards(before: nil, limit: 10, filter: EventFilter(types: ["C", "E"])).map(\.type) == ["E", "C"])
        #expect(
            try await store.readAllBackwards(before: nil, limit: 10, filter: EventFilter(categories: ["account"], types: ["E", "A"])).map(\.type)
                == ["E"])
        await log.close()
    }

    @Test("a filtered reader's checkpoint moves through a long stretch of other events", arguments: Backend.logBackends)
    func filteredCheckpointAdvances(backend: Backend) async throws {
        let log = try await backend.makeLog()
        let store = log.store
        for n in 0..<10 {
            _ = try await store.append(to: "noise-\(n)", expected: .any, events: (0..<100).map { _ in testEvent("Noise") })
        }
        let head = try await store.head()
        let page = try await store.readAll(after: .start, limit: 10, filter: EventFilter(types: ["Nothing"]))
        #expect(page.events.isEmpty)
        #expect(page.checkpoint >= head)
        let typed = try await store.readAll(after: .start, limit: 10, filter: EventFilter(categories: ["noise"], types: ["Noise"]))
        #expect(typed.events.count == 10)
        await log.close()
    }

    @Test("export then import into a fresh log keeps order, and readers old and new see everything", arguments: Backend.logBackends)
    func exportImport(backend: Backend) async throws {
        let source = try await backend.makeLog()
        for n in 0..<30 {
            _ = try await source.store.append(to: "item-\(n % 7)", expected: .any, events: [testEvent("Made", ["n": n])])
        }
        let exported = try await source.store.readAll(after: .start, limit: 1_000, filter: .all).events
        for target in Backend.logBackends {
            let copy = try await target.makeLog()
            let first = try await copy.store.importEvents(Array(exported[..<10]))
            let rest = try await copy.store.importEvents(exported)
            #expect(first.imported == 10)
            #expect(rest == ImportResult(imported: 20, alreadyPresent: 10))
            let imported = try await collect(copy.store.subscribe(), timeout: .seconds(10)) { $0.count >= 30 }
            #expect(imported.map(\.id) == exported.map(\.id))
            #expect(imported.map(\.stream) == exported.map(\.stream))
            #expect(imported.map(\.version) == exported.map(\.version))
            #expect(
                imported.map(\.data).map { try! JSONSerialization.jsonObject(with: $0) as! [String: Int] }
                    == exported.map(\.data).map { try! JSONSerialization.jsonObject(with: $0) as! [String: Int] })
            #expect(zip(imported, exported).allSatisfy { abs($0.recordedAt.timeIntervalSince($1.recordedAt)) < 0.001 })
            // The copy goes on as a log of its own.
            let next = try await copy.store.append(to: "item-0", expected: .exact(5), events: [testEvent("After")])
            #expect(next.streamVersion == 6)
            // An event that clashes with what is stored is refused.
            var clash = exported[0]
            clash.id = UUID()
            await #expect(throws: EventStoreError.importConflict(eventId: clash.id, reason: "\(clash.stream) already has a version \(clash.version)"))
            {
                try await copy.store.importEvents([clash])
            }
            await copy.close()
        }
        let old = try await source.store.readAll(after: .start, limit: 1_000, filter: .all).events
        #expect(old.map(\.id) == exported.map(\.id))
        await source.close()
    }

    /// Appends one event to `stream` at `expected` from 20 tasks at once; how many succeeded.
    /// Every other must fail on its expectation, having seen version `loserSees`.
    private static func race(_ store: any EventStore, stream: String, expected: ExpectedVersion, loserSees: Int64) async throws -> Int {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    do {
                        _ = try await store.append(to: stream, expected: expected, events: [testEvent()])
                        return true
                    } catch EventStoreError.wrongExpectedVersion(_, _, let actual) {
                        #expect(actual == loserSees)
                        return false
                    }
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
    }
}
