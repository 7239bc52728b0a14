import EventLog
import Foundation
import GRDB

/// Rebuilds a read model from the log into a new file, while the live one keeps serving.
public enum ReadModelRebuild {
    /// Where a rebuild stops.
    public enum Limit: Sendable, Hashable {
        /// At the head of the log when the rebuild reaches it.
        case head
        /// After the event at this checkpoint.
        case checkpoint(Checkpoint)
        /// After the last event recorded at or before this time (the read model as it was then).
        case time(Date)
    }

    /// Progress after each page: events applied so far, and the checkpoint reached.
    public typealias Progress = @Sendable (_ applied: Int, _ checkpoint: Checkpoint) -> Void

    /// Applies every projection from the start of the log into a new file at `path`, marked
    /// as being rebuilt (``RebuildLock``) until it returns.
    /// Parked events are skipped; `keys` opens what events seal with their owner's key, for the
    /// projections that need it. Returns the number of events applied. Pages are large
    /// (20,000 events, one transaction each): a page's inserts land on random pages of the
    /// read model's indexes, and fewer, larger transactions write each of those out less often.
    @discardableResult
    public static func rebuild(
        projections: [any Projection], from store: any EventStore, into path: String, until limit: Limit = .head,
        pageSize: Int = 20_000, keys: (any KeyVault)? = nil, progress: Progress? = nil
    ) async throws -> Int {
        // Held until the file is closed: a service starting in the same directory meanwhile
        // leaves the file alone, and removes it if this process dies first.
        let lock = try RebuildLock(for: path)
        defer { lock.release() }
        let pool = try ReadModelDatabase.open(path: path, projections: projections)
        defer { try? pool.close() }
        // Nobody reads the new file until it is swapped in, and a crash leaves only a file to
        // delete: the rebuild skips fsync and keeps a large page cache for its random inserts.
        try await pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = OFF; PRAGMA cache_size = -262144")
        }
        var applied = 0
        for projection in projections {
            let parked = Set(try await ProjectionParking.parked(for: projection.name, in: store).keys)
            let before = applied
            let loaded = try await load(
                projection, from: store, into: pool, until: limit, pageSize: pageSize, skipping: parked, keys: keys
            ) { count, checkpoint in progress?(before + count, checkpoint) }
            applied += loaded.applied
            // A rebuilt file must not keep what a deleted account's rows left in its indexes either.
            if loaded.erased { try await pool.write { db in try projection.forgetErased(in: db) } }
        }
        return applied
    }

    /// Whether `projection` should load in bulk (``load(_:from:into:until:pageSize:skipping:keys:progress:)``)
    /// rather than event by event: it has applied nothing yet, or a bulk load of it was cut short.
    public static func needsBulkLoad(_ projection: any Projection, in pool: DatabasePool) async throws -> Bool {
        try await pool.read { db in
            try ProjectionCheckpoints.load(db, projection: projection.name) == .start
                || ProjectionBulkLoads.isLoading(db, projection: projection.name)
        }
    }

    /// Applies one projection's events after the checkpoint stored in `pool` up to `limit`, in
    /// pages of `pageSize`, one transaction each; parked events are skipped. From the start
    /// of the log, or when a bulk load was cut short, it loads in bulk
    /// (``Projection/beginBulkLoad(in:)``; ``ProjectionBulkLoads``). Returns the events applied,
    /// and whether one of them erased an account (the caller then runs
    /// ``Projection/forgetErased(in:)``).
    public static func load(
        _ projection: any Projection, from store: any EventStore, into pool: DatabasePool, until limit: Limit = .head,
        pageSize: Int = 20_000, skipping parked: Set<UUID>, keys: (any KeyVault)? = nil, progress: Progress? = nil
    ) async throws -> (applied: Int, erased: Bool) {
        let stored = try await pool.read { db in
            (
                checkpoint: try ProjectionCheckpoints.load(db, projection: projection.name),
                loading: try ProjectionBulkLoads.isLoading(db, projection: projection.name)
            )
        }
        var checkpoint = stored.checkpoint
        let bulk = checkpoint == .start || stored.loading
        if bulk && !stored.loading { try await pool.write { db in try ProjectionBulkLoads.begin(db, projection: projection) } }
        // A load cut short may have applied an erasure before: its clean-up is owed.
        var (applied, erased) = (0, stored.loading)
        // The next page is read and prepared (decoded) while this one is written: the log,
        // the decoding and the read model's writer then keep two cores busy.
        let fetch = { @Sendable (after: Checkpoint) async throws -> (PreparedPage, reachedLimit: Bool) in
            let (page, reachedLimit) = try await Self.page(
                of: store, after: after, limit: limit, pageSize: pageSize, filter: projection.filter,
                keysNamedBy: keys == nil ? [] : projection.keyTypes)
            return (try await projection.prepare(page, skipping: parked, keys: keys), reachedLimit)
        }
        let start = checkpoint
        var next = Task { try await fetch(start) }
        defer { next.cancel() }
        while true {
            // A cancelled load stops between pages.
            try Task.checkCancellation()
            let (prepared, reachedLimit) = try await next.value
            let page = prepared.page
            guard page.checkpoint > checkpoint || !page.events.isEmpty else { break }
            if !reachedLimit {
                let after = page.checkpoint
                next = Task { try await fetch(after) }
            }
            try await projection.apply(prepared, to: pool)
            erased = erased || page.events.contains { $0.type == ProjectionRunner.erasingEventType }
            applied += page.events.count
            checkpoint = page.checkpoint
            progress?(applied, checkpoint)
            if reachedLimit { break }
        }
        if bulk { try await pool.write { db in try ProjectionBulkLoads.end(db, projection: projection) } }
        return (applied, erased)
    }

    /// The next page after `checkpoint`, cut at `limit`; whether it reached the limit.
    private static func page(
        of store: any EventStore, after checkpoint: Checkpoint, limit: Limit, pageSize: Int, filter: EventFilter, keysNamedBy keyTypes: Set<String>
    )
        async throws -> (EventPage, Bool)
    {
        // With the keys of the page's sealed values, where the log keeps them beside it (PostgreSQL).
        var page = try await store.readAll(after: checkpoint, limit: pageSize, filter: filter, keysNamedBy: keyTypes)
        switch limit {
        case .head:
            return (page, false)
        case .checkpoint(let last):
            if let cut = page.events.firstIndex(where: { $0.checkpoint > last }) {
                return (EventPage(events: Array(page.events[..<cut]), checkpoint: cut > 0 ? page.events[cut - 1].checkpoint : checkpoint), true)
            }
            if page.checkpoint > last { page.checkpoint = max(checkpoint, min(page.checkpoint, last)) }
            return (page, false)
        case .time(let date):
            if let cut = page.events.firstIndex(where: { $0.recordedAt > date }) {
                return (EventPage(events: Array(page.events[..<cut]), checkpoint: cut > 0 ? page.events[cut - 1].checkpoint : checkpoint), true)
            }
            return (page, false)
        }
    }
}
