import Contracts
import EventLog
import Foundation
import Geo

/// The decisions of the listing aggregate: each takes the state and what the caller asks,
/// and returns the events to append, or throws a ``ListingError``. Time comes in as an
/// argument; nothing here touches the log.
extension ListingState {
    /// How long a listing stays up before it expires, and how often it may be renewed.
    public struct Lifetime: Sendable, Equatable {
        public var duration: TimeInterval
        /// The least time between two renewals.
        public var renewInterval: TimeInterval

        public init(duration: TimeInterval, renewInterval: TimeInterval) {
            self.duration = duration
            self.renewInterval = renewInterval
        }
    }

    /// Posting a new listing. `place` is the draft's exact pickup place, already sealed.
    public static func post(
        id: UUID, owner: UUID, draft: ListingDraft, place: Sealed, now: Date, lifetime: Lifetime
    ) throws(ListingError) -> [any EventContract] {
        let valid = try ValidDraft(draft, listing: id)
        return [
            ListingPosted(
                listingId: id, ownerId: owner, title: valid.title, description: valid.description, category: valid.category,
                price: valid.draft.price, publicLocation: valid.publicLocation, postedAt: now),
            valid.details(of: id),
            ListingPickupPlaceSet(listingId: id, place: place),
            ListingExpirySet(listingId: id, expiresAt: now.addingTimeInterval(lifetime.duration), renewed: false, setAt: now),
        ]
    }

    /// The owner's draft as the listing stands, with the exact place opened by the caller.
    public func draft(place: PickupPlace?) -> ListingDraft {
        ListingDraft(
            title: title, description: description, category: category, condition: condition, price: price,
            pickupTimes: pickupTimes, pickupLocation: place?.location, streetAddress: place?.streetAddress, imageIds: imageIds)
    }

    /// Editing: `draft` is the whole new draft; `newPlace` is the sealed place when it changed.
    public func edit(by actor: UUID, draft: ListingDraft, newPlace: Sealed?, now: Date) throws(ListingError) -> [any EventContract] {
        let id = try owned(by: actor)
        let current = status(at: now)
        guard current == .available || current == .promised else { throw .notEditable(current) }
        let valid = try ValidDraft(draft, listing: id)
        var events: [any EventContract] = [
            ListingEdited(
                listingId: id, title: valid.title, description: valid.description, category: valid.category, price: valid.draft.price,
                publicLocation: valid.publicLocation),
            valid.details(of: id),
        ]
        if let newPlace { events.append(ListingPickupPlaceSet(listingId: id, place: newPlace)) }
        return events
    }

    /// The events that record an expiry that has come but is not written yet, so that every
    /// reader of the log (geo-search among them) learns of it; empty otherwise.
    public func pendingExpiry(now: Date) -> [any EventContract] {
        guard let id, storedStatus == .available, status(at: now) == .expired else { return [] }
        return [ListingStatusChanged(listingId: id, status: .expired)]
    }

    /// Withdrawing (`DELETE`): from any status but given, sold or withdrawn.
    public func withdraw(by actor: UUID, now: Date) throws(ListingError) -> [any EventContract] {
        let id = try owned(by: actor)
        let current = status(at: now)
        guard ![.given, .sold, .withdrawn].contains(current) else { throw .illegalTransition(from: current, to: .withdrawn) }
        return pendingExpiry(now: now) + [ListingStatusChanged(listingId: id, status: .withdrawn)]
    }

    /// The owner moves a promised listing on: back to `available`, or to `given` (a free
    /// item) or `sold` (one with a price).
    public func changeStatus(to target: ListingStatus, by actor: UUID, now: Date) throws(ListingError) -> [any EventContract] {
        let id = try owned(by: actor)
        let current = status(at: now)
        let allowed: Bool =
            switch target {
            case .available: current == .promised
            case .given: current == .promised && price == nil
            case .sold: current == .promised && price != nil
            default: false
            }
        guard allowed else { throw .illegalTransition(from: current, to: target) }
        return [ListingStatusChanged(listingId: id, status: target)]
    }

    /// Promising the listing to the author of `request`; only an available listing.
    public func promise(to requester: UUID, request: UUID, by actor: UUID, now: Date) throws(ListingError) -> [any EventContract] {
        let id = try owned(by: actor)
        let current = status(at: now)
        guard current == .available else { throw .illegalTransition(from: current, to: .promised) }
        return [ListingPromised(listingId: id, requestId: request, requesterId: requester), ListingStatusChanged(listingId: id, status: .promised)]
    }

    /// Renewing: an available listing's expiry moves to `now + duration`; an expired one
    /// becomes available again. At most once per `renewInterval`.
    public func renew(by actor: UUID, now: Date, lifetime: Lifetime) throws(ListingError) -> [any EventContract] {
        let id = try owned(by: actor)
        let current = status(at: now)
        guard current == .available || current == .expired else { throw .illegalTransition(from: current, to: .available) }
        if let last = lastRenewedAt, now < last.addingTimeInterval(lifetime.renewInterval) {
            throw .renewedTooRecently(nextAllowedAt: last.addingTimeInterval(lifetime.renewInterval))
        }
        var events = pendingExpiry(now: now)
        if current == .expired { events.append(ListingStatusChanged(listingId: id, status: .available)) }
        events.append(ListingExpirySet(listingId: id, expiresAt: now.addingTimeInterval(lifetime.duration), renewed: true, setAt: now))
        return events
    }

    /// Whether `reader` may see the exact pickup place: the owner, and the requester the
    /// listing is promised to (while it is).
    public func mayReadPickupPlace(_ reader: UUID?) -> Bool {
        guard let reader else { return false }
        return reader == ownerId || (reader == promisedTo && storedStatus == .promised)
    }

    /// The listing's id when `actor` owns it.
    func owned(by actor: UUID) throws(ListingError) -> UUID {
        guard let id, let ownerId else { throw .notFound }
        guard ownerId == actor else { throw .notOwner }
        return id
    }
}

/// A draft that passed every check, normalised, with what posting and editing both write
/// from it: its required fields and the approximate public point of its pickup place.
private struct ValidDraft {
    let draft: ListingDraft
    let title: String
    let description: String
    let category: String
    let condition: String
    let publicLocation: Coordinate

    init(_ draft: ListingDraft, listing id: UUID) throws(ListingError) {
        let draft = draft.normalized
        let problems = draft.problems()
        guard problems.isEmpty, let title = draft.title, let category = draft.category, let condition = draft.condition,
            let exact = draft.pickupLocation.flatMap({ GeoCoordinate(lat: $0.lat, lon: $0.lon) })
        else { throw .invalid(problems) }
        let approximate = PublicLocation(listingId: id, exact: exact).point
        self.draft = draft
        self.title = title
        self.description = draft.description ?? ""
        self.category = category
        self.condition = condition
        publicLocation = Coordinate(lat: approximate.lat, lon: approximate.lon)
    }

    /// The public details this draft sets.
    func details(of id: UUID) -> ListingDetailsSet {
        ListingDetailsSet(listingId: id, condition: condition, pickupTimes: draft.pickupTimes, imageIds: draft.imageIds)
    }
}
