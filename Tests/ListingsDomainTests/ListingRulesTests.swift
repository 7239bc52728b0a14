import Contracts
import EventLog
import Foundation
import Geo
import ListingsDomain
import Testing

@Suite("listing rules")
struct ListingRulesTests {
    static let amsterdam = Coordinate(lat: 52.3731, lon: 4.8922)
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let lifetime = ListingState.Lifetime(duration: 30 * 86_400, renewInterval: 86_400)
    static let sealed = Sealed(keyId: UUID(), box: "opaque")

    static func draft(price: Money? = nil) -> ListingDraft {
        ListingDraft(
            title: "  Oak chair ", description: "Sturdy", category: "Furniture", condition: "good", price: price,
            pickupLocation: amsterdam, streetAddress: "Damrak 1")
    }

    /// Given a posted listing (and more events), the state.
    static func given(owner: UUID, price: Money? = nil, _ more: (UUID) -> [any EventContract] = { _ in [] }) throws -> ListingState {
        let id = UUID()
        let events = try ListingState.post(id: id, owner: owner, draft: draft(price: price), place: sealed, now: now, lifetime: lifetime) + more(id)
        return ListingState.replay(events, version: Int64(events.count))
    }

    @Test("a draft with many faults lists every one of them")
    func everyFault() {
        let draft = ListingDraft(
            title: " ", description: String(repeating: "x", count: 5_001), category: "Cars", condition: nil,
            price: Money(amountMinor: -5, currency: "euro"),
            pickupTimes: PickupTimes(windows: [PickupWindow(startsAt: Self.now, endsAt: Self.now)]),
            pickupLocation: Coordinate(lat: 91, lon: -181), imageIds: Array(repeating: UUID(), count: 9))
        let problems = draft.problems()
        #expect(
            Set(problems.keys) == [
                "title", "description", "category", "condition", "price.amountMinor", "price.currency",
                "pickupTimes.windows[0].endsAt", "pickupLocation.lat", "pickupLocation.lon", "imageIds",
            ])
        #expect(
            ListingDraft(title: nil, description: nil, category: nil, condition: nil, price: nil, pickupLocation: nil).problems().keys.sorted()
                == ["category", "condition", "pickupLocation", "title"])
        #expect(Self.draft().problems().isEmpty)
    }

    @Test("posting publishes the approximate point only, and trims the title")
    func posting() throws {
        let owner = UUID()
        let id = UUID()
        let events = try ListingState.post(id: id, owner: owner, draft: Self.draft(), place: Self.sealed, now: Self.now, lifetime: Self.lifetime)
        let posted = try #require(events.first as? ListingPosted)
        let expected = PublicLocation(listingId: id, exact: GeoCoordinate(lat: Self.amsterdam.lat, lon: Self.amsterdam.lon)!).point
        #expect(posted.publicLocation == Coordinate(lat: expected.lat, lon: expected.lon))
        #expect(posted.publicLocation != Self.amsterdam)
        #expect(posted.title == "Oak chair")
        #expect(events.contains { ($0 as? ListingPickupPlaceSet)?.place == Self.sealed })
        #expect((events.last as? ListingExpirySet)?.expiresAt == Self.now.addingTimeInterval(30 * 86_400))
    }

    @Test("illegal transitions name the current status")
    func transitions() throws {
        let owner = UUID()
        let free = try Self.given(owner: owner)
        #expect(throws: ListingError.illegalTransition(from: .available, to: .given)) { try free.changeStatus(to: .given, by: owner, now: Self.now) }
        #expect(throws: ListingError.notOwner) { try free.withdraw(by: UUID(), now: Self.now) }
        let promised = try Self.given(owner: owner) { id in
            [ListingPromised(listingId: id, requestId: UUID(), requesterId: UUID()), ListingStatusChanged(listingId: id, status: .promised)]
        }
        #expect(promised.status(at: Self.now) == .promised)
        #expect(throws: ListingError.illegalTransition(from: .promised, to: .sold)) { try promised.changeStatus(to: .sold, by: owner, now: Self.now) }
        #expect(try promised.changeStatus(to: .given, by: owner, now: Self.now).count == 1)
        let given = try Self.given(owner: owner) { id in [ListingStatusChanged(listingId: id, status: .given)] }
        #expect(throws: ListingError.illegalTransition(from: .given, to: .withdrawn)) { try given.withdraw(by: owner, now: Self.now) }
        #expect(throws: ListingError.notEditable(.given)) { try given.edit(by: owner, draft: given.draft(place: nil), newPlace: nil, now: Self.now) }
        let priced = try Self.given(owner: owner, price: Money(amountMinor: 1_500, currency: "EUR")) { id in
            [ListingStatusChanged(listingId: id, status: .promised)]
        }
        #expect(throws: ListingError.illegalTransition(from: .promised, to: .given)) { try priced.changeStatus(to: .given, by: owner, now: Self.now) }
        #expect(try priced.changeStatus(to: .sold, by: owner, now: Self.now).count == 1)
    }

    @Test("a listing expires after its lifetime; renewing brings it back, at most once a day")
    func expiryAndRenewal() throws {
        let owner = UUID()
        let state = try Self.given(owner: owner)
        let later = Self.now.addingTimeInterval(31 * 86_400)
        #expect(state.status(at: Self.now) == .available)
        #expect(state.status(at: later) == .expired)
        #expect(state.pendingExpiry(now: later).count == 1)
        #expect(state.pendingExpiry(now: Self.now).isEmpty)
        let renewal = try state.renew(by: owner, now: later, lifetime: Self.lifetime)
        #expect(renewal.compactMap { ($0 as? ListingStatusChanged)?.status } == [.expired, .available])
        var renewed = state
        for event in renewal { renewed.evolve(event) }
        #expect(renewed.status(at: later) == .available)
        #expect(throws: ListingError.renewedTooRecently(nextAllowedAt: later.addingTimeInterval(86_400))) {
            try renewed.renew(by: owner, now: later.addingTimeInterval(3_600), lifetime: Self.lifetime)
        }
        #expect(try renewed.renew(by: owner, now: later.addingTimeInterval(86_400), lifetime: Self.lifetime).count == 1)
    }

    @Test("only the owner and the promised requester may read the pickup place")
    func pickupPlaceReaders() throws {
        let (owner, requester, other) = (UUID(), UUID(), UUID())
        let available = try Self.given(owner: owner)
        #expect(available.mayReadPickupPlace(owner))
        #expect(!available.mayReadPickupPlace(requester))
        #expect(!available.mayReadPickupPlace(nil))
        var promised = available
        for event in try available.promise(to: requester, request: UUID(), by: owner, now: Self.now) { promised.evolve(event) }
        #expect(promised.mayReadPickupPlace(requester))
        #expect(!promised.mayReadPickupPlace(other))
        var released = promised
        for event in try promised.changeStatus(to: .available, by: owner, now: Self.now) { released.evolve(event) }
        #expect(!released.mayReadPickupPlace(requester))
    }
}
