import Backoff
import EventLog

/// The one write path of every service, in the manner of Emmett's and Eventuous' deciders:
/// read a stream's state, decide, append at the version read. A stream that moved meanwhile
/// is read and decided again, a bounded number of times with a random pause between, and
/// then answers 409 (``WriteConflict``); a command sent with `If-Match` is not decided again
/// but answers 412 (``StaleVersion``). No service catches a version conflict itself.
///
/// What goes into the events (metadata with the actor, correlation and trace, sealed text,
/// idempotent event ids) is the decision's: the handler appends them as they are given.
public struct CommandHandler: Sendable {
    /// What a command decided, given the state it read.
    public enum Decision<Answer> {
        /// Nothing to write: this is the answer (a retry found already done, a change to
        /// what is so already).
        case answer(Answer)
        /// Append these events at the version read; `answer` makes the reply from what the
        /// store said.
        case append([NewEvent], answer: (AppendResult) async throws -> Answer)
    }

    public let store: any EventStore
    /// How many times a command is decided before it answers 409.
    public let attempts: Int
    private let pause = Backoff(initial: .microseconds(200), maximum: .milliseconds(20), jitter: 1)

    public init(store: any EventStore, attempts: Int = 5) {
        self.store = store
        self.attempts = max(1, attempts)
    }

    /// Runs a command on `stream`: `load` reads its state and version, `decide` answers or
    /// names the events to append at that version.
    ///
    /// - Parameters:
    ///   - ifMatch: the version the client last read (`If-Match`): any other version fails
    ///     with ``StaleVersion`` at once, before and after deciding.
    ///   - retryingTakenIds: also decide again when an event id is taken by another body,
    ///     for commands whose event ids come from the request (the reload then sees the
    ///     other delivery's events).
    ///   - first: the state and version the caller read already, decided on first; `load`
    ///     is called only when the stream moved.
    public func handle<State, Answer>(
        _ stream: String, ifMatch: Int64? = nil, retryingTakenIds: Bool = false, starting first: (State, Int64)? = nil,
        load: () async throws -> (State, Int64),
        decide: (State, Int64) async throws -> Decision<Answer>
    ) async throws -> Answer {
        for attempt in 1...attempts {
            let (state, version) = if attempt == 1, let first { first } else { try await load() }
            if let ifMatch, ifMatch != version { throw StaleVersion(current: version) }
            let events: [NewEvent]
            let answer: (AppendResult) async throws -> Answer
            switch try await decide(state, version) {
            case .answer(let done): return done
            case .append(let decided, let answering): (events, answer) = (decided, answering)
            }
            if let result = try await append(events, to: stream, at: version, ifMatch: ifMatch, retryingTakenIds: retryingTakenIds) {
                return try await answer(result)
            }
            if attempt < attempts { try await Task.sleep(for: pause.delay(forAttempt: attempt)) }
        }
        throw WriteConflict(stream: stream)
    }

    /// Starts `stream` with `events`, or throws `taken` when it exists already: a
    /// reservation (an email, a slug) or a new aggregate whose id is fresh.
    public func start(_ stream: String, with events: [NewEvent], orThrow taken: @autoclosure () -> any Error) async throws -> AppendResult {
        try await claim(stream, at: 0, with: events, orThrow: taken())
    }

    /// Appends `events` to `stream` at exactly `version`, or throws `lost` when the stream
    /// moved: for a claim that a second look must not decide again (a reservation another
    /// request took meanwhile, a single-use token spent at the same moment).
    public func claim(
        _ stream: String, at version: Int64, with events: [NewEvent],
        orThrow lost: @autoclosure () -> any Error
    ) async throws -> AppendResult {
        guard let result = try await tryClaim(stream, at: version, with: events) else { throw lost() }
        return result
    }

    /// Appends `events` to `stream` at exactly `version`; nil when the stream moved (another
    /// replica did the same thing first, say).
    public func tryClaim(_ stream: String, at version: Int64, with events: [NewEvent]) async throws -> AppendResult? {
        do {
            return try await store.append(to: stream, expected: version == 0 ? .noStream : .exact(version), events: events)
        } catch EventStoreError.wrongExpectedVersion {
            return nil
        }
    }

    /// Appends `events` whatever the stream holds: for facts that no state decides (a
    /// deletion recorded, a message in a conversation, a fact replayed from elsewhere).
    public func record(_ events: [NewEvent], to stream: String) async throws -> AppendResult {
        try await store.append(to: stream, expected: .any, events: events)
    }

    /// The store's answer, or nil when the stream moved and the command may be decided again.
    private func append(
        _ events: [NewEvent], to stream: String, at version: Int64, ifMatch: Int64?,
        retryingTakenIds: Bool
    ) async throws -> AppendResult? {
        do {
            return try await store.append(to: stream, expected: version == 0 ? .noStream : .exact(version), events: events)
        } catch EventStoreError.wrongExpectedVersion(_, _, let actual) {
            if ifMatch != nil { throw StaleVersion(current: actual) }
            return nil
        } catch EventStoreError.idempotencyConflict where retryingTakenIds {
            return nil
        }
    }
}
