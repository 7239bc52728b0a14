import EventLog
import EventLogTestSupport
import Testing

@Suite("checkpoints and stream names")
struct CheckpointTests {
    @Test("checkpoints compare as numbers, transaction first, never as text")
    func numericOrder() {
        let a = Checkpoint(transaction: 9, position: 500)
        let b = Checkpoint(transaction: 10, position: 1)
        #expect(a < b)
        #expect(a.description > b.description) // the text would sort the wrong way
        #expect(Checkpoint(transaction: 10, position: 2) > b)
        #expect(Checkpoint.start < Checkpoint(transaction: 0, position: 1))
    }

    @Test("a checkpoint's text form parses back; junk does not")
    func textForm() {
        let checkpoint = Checkpoint(transaction: 18_446_744_073_709_551_615, position: 42)
        #expect(Checkpoint(checkpoint.description) == checkpoint)
        #expect(Checkpoint("17") == Checkpoint(transaction: 0, position: 17))
        for junk in ["", ":", "a:1", "1:-2", "1:2:3", "-1", "1.5"] {
            #expect(Checkpoint(junk) == nil, "\(junk)")
        }
    }

    @Test("a stream name's category is the text before the first dash")
    func streamNames() {
        #expect(StreamName("listing-0b6f-42")?.category == "listing")
        #expect(StreamName("listing-0b6f-42")?.id == "0b6f-42")
        for bad in ["listing", "-1", "listing-", "Listing-1", "list ing-1"] {
            #expect(StreamName(bad) == nil, "\(bad)")
        }
    }

    @Test("expected versions accept exactly the stream states they describe")
    func expectations() {
        #expect(ExpectedVersion.noStream.isSatisfied(by: 0))
        #expect(!ExpectedVersion.noStream.isSatisfied(by: 1))
        #expect(!ExpectedVersion.streamExists.isSatisfied(by: 0))
        #expect(ExpectedVersion.streamExists.isSatisfied(by: 3))
        #expect(ExpectedVersion.exact(3).isSatisfied(by: 3))
        #expect(!ExpectedVersion.exact(3).isSatisfied(by: 4))
        #expect(ExpectedVersion.any.isSatisfied(by: 0))
    }

    @Test("a change signal wakes a waiter at once, and a timeout ends a wait without one")
    func changeSignal() async {
        let signal = ChangeSignal()
        let seen = signal.generation
        let clock = ContinuousClock()
        // True only when the fire ended the wait: the timeout's end is false.
        let woken = Task { await signal.wait(after: seen, timeout: .seconds(120)) }
        try? await Task.sleep(for: .milliseconds(50))
        signal.fire()
        #expect(await woken.value)
        // Already fired since `seen`: returns without waiting.
        await signal.wait(after: seen, timeout: .seconds(30))
        let timeoutStart = clock.now
        #expect(await signal.wait(after: signal.generation, timeout: .milliseconds(50)) == false)
        #expect(clock.now - timeoutStart >= .milliseconds(50))
    }

    @Test("a change signal about some categories wakes their waiters and those of every category, not the others")
    func categoryChangeSignal() async {
        let signal = ChangeSignal()
        let listings: Set<String> = ["listing"]
        let seenListings = signal.generation(for: listings)
        let seenAll = signal.generation
        signal.fire(categories: ["donation"])
        #expect(signal.generation(for: listings) == seenListings)
        #expect(await signal.wait(after: seenListings, timeout: .milliseconds(50), for: listings) == false)
        #expect(await signal.wait(after: seenAll, timeout: .seconds(30)), "a waiter for everything wakes for any category")

        let waiting = Task { await signal.wait(after: seenListings, timeout: .seconds(120), for: listings) }
        try? await Task.sleep(for: .milliseconds(50))
        signal.fire(categories: ["donation"])
        signal.fire(categories: ["account", "listing"])
        #expect(await waiting.value, "woken by the fire about its category, long before the timeout")
        #expect(signal.generation(for: listings) != seenListings)

        let everything = signal.generation(for: ["image"])
        signal.fire()
        #expect(await signal.wait(after: everything, timeout: .seconds(30), for: ["image"]), "a fire about everything wakes every waiter")
    }
}
