/// Catches up from a checkpoint, then follows the log live.
///
/// It pulls one page at a time, so a slow consumer holds nothing in memory. Between
/// pages it waits for the store's ``ChangeSignal`` or its poll interval, whichever comes
/// first; a subscription to some categories wakes only for appends to those. After a page
/// that reached the head of the log (``EventPage/reachedHead``) it waits before reading
/// again, so following the log live costs one read per wake-up. A read that finds new events
/// held back behind an older transaction still open (``EventPage/reachedHead`` false on an
/// empty page) reads again after a short pause, doubling from ``firstHeldBackPause`` up to the
/// poll interval: that transaction may write no event (an idempotency record, a key) and so
/// wake nobody when it ends. Each element
/// is a page of matching events with the checkpoint scanned through; a page may be empty
/// when only non-matching events passed, so that a consumer can store its progress.
/// Iteration ends when the task is cancelled; read errors are thrown.
public struct EventSubscription: AsyncSequence, Sendable {
    public typealias Element = EventPage

    /// The first pause before reading again past events held back by an older transaction.
    public static let firstHeldBackPause = Duration.milliseconds(1)

    let store: any EventStore
    let start: Checkpoint
    let filter: EventFilter
    let pageSize: Int
    /// Besides its categories, the name a fire about which wakes this subscription alone.
    var wakeName: String? = nil
    /// The event types whose named keys come with each page (``EventPage/storedKeys``).
    var keyTypes: Set<String> = []

    public func makeAsyncIterator() -> Iterator {
        Iterator(store: store, checkpoint: start, filter: filter, pageSize: pageSize, wakeName: wakeName, keyTypes: keyTypes)
    }

    public struct Iterator: AsyncIteratorProtocol {
        let store: any EventStore
        /// The checkpoint of the last page returned.
        public private(set) var checkpoint: Checkpoint
        let filter: EventFilter
        let pageSize: Int
        /// What a wait wakes for when not for everything: the filter's categories and the wake name.
        let wakeCategories: Set<String>?
        /// Set when a wake for this subscription's categories found nothing to read: an older
        /// transaction, of any category, may still hold the append back, so the next wait
        /// (that one only) wakes for an append to any category.
        var wakeForAll = false
        var wokenForOwn = false
        /// Set when the last page reached the head of the log: the next call waits for a fire
        /// after the generation seen before that read, rather than reading again to find nothing.
        var waitFirst: (seen: UInt64, categories: Set<String>?)?
        /// The last pause taken while the log's new events were held back; nil once they are not.
        var heldBackPause: Duration?
        let keyTypes: Set<String>

        init(store: any EventStore, checkpoint: Checkpoint, filter: EventFilter, pageSize: Int, wakeName: String?, keyTypes: Set<String>) {
            self.store = store
            self.keyTypes = keyTypes
            self.checkpoint = checkpoint
            self.filter = filter
            self.pageSize = pageSize
            wakeCategories = filter.categories.map { categories in wakeName.map { categories.union([$0]) } ?? categories }
        }

        public mutating func next() async throws -> EventPage? {
            while !Task.isCancelled {
                if let (seen, categories) = waitFirst {
                    waitFirst = nil
                    let woken = await store.changes.wait(after: seen, timeout: store.pollInterval, for: categories)
                    wokenForOwn = woken && categories != nil
                }
                let categories = wakeForAll ? nil : wakeCategories
                let seen = store.changes.generation(for: categories)
                let page =
                    keyTypes.isEmpty
                    ? try await store.readAll(after: checkpoint, limit: pageSize, filter: filter)
                    : try await store.readAll(after: checkpoint, limit: pageSize, filter: filter, keysNamedBy: keyTypes)
                wakeForAll = page.events.isEmpty && wokenForOwn
                wokenForOwn = false
                let advanced = page.checkpoint > checkpoint
                if advanced { checkpoint = page.checkpoint }
                if !page.events.isEmpty || advanced {
                    heldBackPause = nil
                    if page.reachedHead { waitFirst = (seen, categories) }
                    return EventPage(events: page.events, checkpoint: checkpoint, reachedHead: page.reachedHead, storedKeys: page.storedKeys)
                }
                var timeout = store.pollInterval
                if page.reachedHead {
                    heldBackPause = nil
                } else {
                    timeout =
                        heldBackPause.map { Swift.min($0 * 2, store.pollInterval) }
                        ?? Swift.min(EventSubscription.firstHeldBackPause, store.pollInterval)
                    heldBackPause = timeout
                }
                let woken = await store.changes.wait(after: seen, timeout: timeout, for: categories)
                wokenForOwn = woken && categories != nil
            }
            return nil
        }
    }
}
