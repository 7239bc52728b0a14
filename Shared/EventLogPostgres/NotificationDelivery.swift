import EventLog
import Synchronization

/// What both PostgreSQL stores' listeners do with a notification's payload: fire the
/// store's ``ChangeSignal`` for the categories it names (for everything when it names none,
/// as a notification from an older version or an operator does), and skip it when the store
/// sent it itself, counting those.
package final class NotificationDelivery: Sendable {
    private let changes: ChangeSignal
    /// The payload element by which the store's own notifications are known.
    private let ownMark: Substring
    private let ownSkipped = Atomic<Int>(0)

    package init(changes: ChangeSignal, origin: NotificationOrigin) {
        self.changes = changes
        ownMark = Substring(origin.mark)
    }

    /// How many of the store's own notifications came back and were skipped.
    package var ownNotificationsSkipped: Int { ownSkipped.load(ordering: .relaxed) }

    /// Fires for `payload` (see ``AppendNotifier``), or skips it when the store sent it.
    package func deliver(_ payload: String) {
        switch NotificationOrigin.heard(payload, ownMark: ownMark) {
        case .own: ownSkipped.add(1, ordering: .relaxed)
        case .everything: changes.fire()
        case .categories(let categories): changes.fire(categories: categories)
        }
    }
}
