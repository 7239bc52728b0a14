import Backoff
import EventLog
import Foundation
import GRDB
import Logging
import Metrics
import ServiceLifecycle
import Synchronization

/// Where a projection stands, for readiness checks and operators.
public struct ProjectionStatus: Sendable, Hashable {
    /// The last checkpoint applied (and stored) in the live read model.
    public var checkpoint: Checkpoint = .start
    /// True once the projection has reached the head of the log as it was at start.
    public var isCaughtUp = false
    /// The event the projection is halted on, with the error, until it applies or is parked.
    public var stalledOn: String?
}

/// Keeps one projection's read model up to date: catches up from its stored checkpoint (from
/// the start of the log in bulk, as a rebuild does), then follows the log live. Each page is applied, and the checkpoint advanced, in one
/// SQLite transaction, so a crash at any point neither loses nor repeats an event.
/// A failing event halts the projection (retrying with back-off) until it applies or an
/// operator parks it. When the read model is swapped for a rebuilt file, the runner goes
/// on from that file's checkpoint.
public final class ProjectionRunner: Service, Sendable {
    public let projection: any Projection
    let store: any EventStore
    let database: ReadModelDatabase
    let pageSize: Int
    /// Opens what events seal with their owner's key, for projections that need it (see ``Projection/prepare(_:keys:)``).
    let keys: (any KeyVault)?
    let logger: Logger
    private let state = Mutex(ProjectionStatus())
    private let progress = ChangeSignal()
    private let lag: Gauge

    public init(
        store: any EventStore, database: ReadModelDatabase, projection: any Projection, pageSize: Int = 500,
        keys: (any KeyVault)? = nil, logger: Logger
    ) {
        self.keys = keys
        self.store = store
        self.database = database
        self.projection = projection
        self.pageSize = pageSize
        var logger = logger
        logger[metadataKey: "projection"] = "\(projection.name)"
        self.logger = logger
        lag = Gauge(label: "commons_projection_lag_events", dimensions: [("projection", projection.name)])
    }

    public var status: ProjectionStatus { state.withLock { $0 } }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            var retries = Backoff(initial: .milliseconds(250), maximum: .seconds(10)).attempts()
            // Kept across restarts of `follow`: an erasure whose clean-up failed is retried.
            var erasurePending = false
            while !Task.isCancelled {
                do {
                    try await self.follow(erasurePending: &erasurePending)
                    retries.reset()
                } catch is CancellationError {
                    return
                } catch {
                    if Task.isCancelled { return }
                    let delay = retries.next()
                    self.logger.error("projection halted; retrying", metadata: ["error": "\(error)", "retryIn": "\(delay)"])
                    try? await Task.sleep(for: delay)
                }
            }
        }
    }

    /// Waits until every one of `runners` has applied `checkpoint`; false when one times out.
    /// They are woken and waited for at once: one after another, each runner that must read
    /// the log to get there (one whose categories the write did not touch) added a round trip.
    public static func waitUntilApplied(_ runners: [ProjectionRunner], _ checkpoint: Checkpoint, timeout: Duration) async -> Bool {
        if runners.count == 1 { return await runners[0].waitUntilApplied(checkpoint, timeout: timeout) }
        return await withTaskGroup(of: Bool.self) { group in
            for runner in runners { group.addTask { await runner.waitUntilApplied(checkpoint, timeout: timeout) } }
            return await group.allSatisfy { $0 }
        }
    }

    /// Waits until the projection has applied everything up to `checkpoint`; false on timeout
    /// or cancellation (a request past its deadline stops waiting at once).
    /// The runner wakes only for appends to its own categories, so a position reached by
    /// others' appends alone (a request after a write elsewhere) wakes it to read up to there.
    /// It wakes the runner at most every ``wakeInterval``: on PostgreSQL each read may move
    /// the checkpoint a little (the visibility horizon moves with every transaction), and
    /// waking it again on each would spin.
    public func waitUntilApplied(_ checkpoint: Checkpoint, timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        var nextWake = ContinuousClock.now
        while true {
            let seen = progress.generation
            if status.checkpoint >= checkpoint { return true }
            let now = ContinuousClock.now
            // A cancelled wait returns at once, so the loop would spin until the deadline.
            if now >= deadline || Task.isCancelled { return false }
            guard projection.filter.categories != nil else {
                await progress.wait(after: seen, timeout: deadline - now)
                continue
            }
            if now >= nextWake {
                store.changes.fire(categories: CollectionOfOne(wakeName))
                nextWake = now + Self.wakeInterval
            }
            await progress.wait(after: seen, timeout: min(deadline, nextWake) - now)
        }
    }

    /// The name by which a wait for a checkpoint wakes this runner's subscription alone: firing
    /// its categories instead woke every runner that shares one (each projection that reads
    /// accounts' events), each to read the log for nothing.
    var wakeName: String { "projection:" + projection.name }

    /// How often, at most, a wait for a checkpoint wakes the runner.
    static let wakeInterval = Duration.milliseconds(50)

    /// The event after which a read model's file must not keep old copies of pages.
    static let erasingEventType = "AccountDeleted"

    /// The most events the lag gauge counts (beyond it, the gauge stays at this).
    public static let lagCountLimit = 100_000

    /// Copies the WAL into the file and empties it, so that the pages a deleted account's rows
    /// were on before (kept in the WAL until it wraps) are gone from disk too; the file's own
    /// copies were overwritten by `secure_delete`.
    ///
    /// A checkpoint that meets another one running (``WALCheckpointer``'s, beside the writer)
    /// gives up at once, without waiting, and says so only in its `busy` column: it is tried
    /// again until the WAL is empty, and after ``forgetOldPagesPatience`` the runner fails
    /// (and, started again, cleans once it reaches the head).
    static func forgetOldPages(of pool: DatabasePool) async throws {
        let deadline = ContinuousClock.now + forgetOldPagesPatience
        while true {
            let busy = try await pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)") ?? 0 }
            if busy == 0 { return }
            guard ContinuousClock.now < deadline else { throw OldPagesKept(path: pool.path) }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    /// How long ``forgetOldPages(of:)`` tries to empty the WAL.
    static let forgetOldPagesPatience = Duration.seconds(10)

    /// The WAL could not be emptied after an erasure: it may still hold old copies of pages.
    struct OldPagesKept: Error, CustomStringConvertible {
        let path: String
        var description: String { "the WAL of \(path) could not be emptied after an erasure (another checkpoint kept it busy)" }
    }

    /// Follows the log from the stored checkpoint. After an erasing event it cleans the file
    /// (``Projection/forgetErased(in:)``, then ``forgetOldPages(of:)``) once it reaches the head,
    /// not after every page: catching up over many deletions then merges the indexes once.
    private func follow(erasurePending: inout Bool) async throws {
        let pool = database.pool
        var parked = Set(try await ProjectionParking.parked(for: projection.name, in: store).keys)
        if try await ReadModelRebuild.needsBulkLoad(projection, in: pool) {
            try await loadInBulk(into: pool, skipping: parked)
            erasurePending = false
        }
        let start = try await pool.read { [name = projection.name] db in try ProjectionCheckpoints.load(db, projection: name) }
        let target = try await store.head()
        update {
            $0.checkpoint = start; $0.isCaughtUp = start >= target
        }
        var lastLagReport = ContinuousClock.now - .seconds(10)
        for try await page in store.subscribe(
            after: start, filter: projection.filter, pageSize: pageSize, wakeName: wakeName,
            keysNamedBy: keys == nil ? [] : projection.keyTypes)
        {
            try database.followSwap()
            if database.pool !== pool { return } // swapped for a rebuilt file: start over from its checkpoint
            // Catching up after a start is a replay of old events: only events that arrive live get spans.
            let live = status.isCaughtUp
            do {
                try await projection.apply(page, to: pool, skipping: parked, keys: keys, live: live)
            } catch let failure as ProjectionFailure {
                parked = Set(try await ProjectionParking.parked(for: projection.name, in: store).keys)
                guard parked.contains(failure.event.id) else {
                    update { $0.stalledOn = failure.description }
                    throw failure
                }
                logger.warning("skipping a parked event", metadata: ["eventId": "\(failure.event.id)"])
                try await projection.apply(page, to: pool, skipping: parked, keys: keys, live: live)
            }
            database.checkpointer.committed(to: pool)
            if page.events.contains(where: { $0.type == Self.erasingEventType }) { erasurePending = true }
            // A page shorter than a full one, or the head as it was at start: nothing is queued behind it.
            if erasurePending, page.events.count < pageSize || page.checkpoint >= target {
                try await pool.write { [projection] db in try projection.forgetErased(in: db) }
                try await Self.forgetOldPages(of: pool)
                erasurePending = false
            }
            // Caught up only once the file is clean: a replica that started from a snapshot
            // reports ready with the deletions since the snapshot wholly applied.
            update {
                $0.checkpoint = page.checkpoint
                $0.stalledOn = nil
                if page.checkpoint >= target { $0.isCaughtUp = true }
            }
            progress.fire()
            if ContinuousClock.now - lastLagReport > .seconds(1) {
                lastLagReport = ContinuousClock.now
                if let behind = try? await store.eventCount(after: page.checkpoint, limit: Self.lagCountLimit) { lag.record(behind) }
            }
        }
    }

    /// Catches up from the start of the log (a new replica with no read model and no snapshot)
    /// as a rebuild does, in large pages with the indexes built once at the end, and cleans
    /// the file of any erasure it applied. Not ready meanwhile: it then follows the log live.
    private func loadInBulk(into pool: DatabasePool, skipping parked: Set<UUID>) async throws {
        let started = ContinuousClock.now
        let loaded: (applied: Int, erased: Bool)
        do {
            // The status keeps its checkpoint meanwhile: what a page applied is not readable as
            // it will be (indexes, a deleted account's rows) until the load ends.
            loaded = try await ReadModelRebuild.load(projection, from: store, into: pool, skipping: parked, keys: keys) {
                [database] _, _ in database.checkpointer.committed(to: pool)
            }
        } catch let failure as ProjectionFailure {
            update { $0.stalledOn = failure.description }
            throw failure
        }
        update { $0.stalledOn = nil }
        if loaded.erased {
            try await pool.write { [projection] db in try projection.forgetErased(in: db) }
            try await Self.forgetOldPages(of: pool)
        }
        if loaded.applied > 0 {
            logger.notice(
                "loaded the log in bulk", metadata: ["events": "\(loaded.applied)", "seconds": "\((ContinuousClock.now - started) / .seconds(1))"])
        }
    }

    private func update(_ change: (inout ProjectionStatus) -> Void) {
        state.withLock { change(&$0) }
    }
}
