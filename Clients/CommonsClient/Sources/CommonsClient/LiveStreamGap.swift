/// How a live stream ends when its reader fell behind: more events came than the client
/// holds for a reader (``CommonsClient`` `liveStreamBuffer`, 256 by default), so the oldest
/// of those not yet read were dropped.
///
/// It is thrown where the dropped events would have come: every value read before it came
/// in order, with none missing. To go on without a gap, open the stream again after
/// ``resumeAfter``; the server sends the dropped events again. To skip them, use
/// ``newest``, the events kept, and open it again after the last of those.
///
/// ```swift
/// do {
///     for try await change in commons.lists.liveChanges(list.id, after: version) { apply(change) }
/// } catch let gap as LiveStreamGap<ListChange> {
///     // reload the list, or resume after gap.resumeAfter
/// }
/// ```
public struct LiveStreamGap<Value: Sendable>: Error {
    /// How many events were dropped.
    public var dropped: Int
    /// The id of the last event read (a list's version, an alert match's id), to open the
    /// stream again after; nil when none was read and the stream began at its start.
    public var resumeAfter: String?
    /// The events that came after the dropped ones, oldest first, at most the buffer's size.
    public var newest: [Value]
    /// The id of the last event in ``newest``, to open the stream again after it.
    public var newestId: String?

    /// A gap of `dropped` events after `resumeAfter`, followed by `newest`.
    public init(dropped: Int, resumeAfter: String?, newest: [Value], newestId: String?) {
        self.dropped = dropped
        self.resumeAfter = resumeAfter
        self.newest = newest
        self.newestId = newestId
    }
}
