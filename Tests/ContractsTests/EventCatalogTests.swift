import Contracts
import EventLog
import Foundation
import Testing

/// A current event type and the older shape it replaced.
private struct ItemPosted: EventContract, Equatable {
    static let eventType = "ItemPosted"
    static let schemaVersion = 2
    var title: String
    var priceMinor: Int
    var currency: String
}

private struct ItemPostedV1: Decodable {
    var title: String
    var priceCents: Int
}

private func stored(_ type: String, version: Int, _ json: String) -> RecordedEvent {
    RecordedEvent(
        checkpoint: .start, stream: "item-1", version: 1, id: UUID(), type: type, schemaVersion: version,
        data: Data(json.utf8), metadata: .init(), recordedAt: Date())
}

@Suite("event catalog")
struct EventCatalogTests {
    let catalog: EventCatalog = {
        var catalog = EventCatalog()
        catalog.register(
            ItemPosted.self,
            upcasters: [
                .from(version: 1, as: ItemPostedV1.self) { ItemPosted(title: $0.title, priceMinor: $0.priceCents, currency: "USD") }
            ])
        return catalog
    }()

    @Test("the current schema version decodes as it is")
    func currentVersion() throws {
        let event = try catalog.decode(stored("ItemPosted", version: 2, #"{"title":"Sofa","priceMinor":500,"currency":"EUR"}"#))
        #expect(event as? ItemPosted == ItemPosted(title: "Sofa", priceMinor: 500, currency: "EUR"))
    }

    @Test("an old schema version is upcast when read, never rewritten")
    func upcasting() throws {
        let event = try catalog.decode(stored("ItemPosted", version: 1, #"{"title":"Lamp","priceCents":250}"#))
        #expect(event as? ItemPosted == ItemPosted(title: "Lamp", priceMinor: 250, currency: "USD"))
    }

    @Test("unknown types decode to nil so readers can skip them")
    func unknownTypes() throws {
        #expect(try catalog.decode(stored("SomethingNew", version: 1, "{}")) == nil)
    }

    @Test("a version without an upcaster, or a body of the wrong shape, is a typed error")
    func errors() {
        #expect(throws: EventDecodingError.unsupportedSchemaVersion(type: "ItemPosted", version: 7)) {
            try catalog.decode(stored("ItemPosted", version: 7, "{}"))
        }
        #expect(throws: EventDecodingError.self) {
            try catalog.decode(stored("ItemPosted", version: 2, #"{"title":3}"#))
        }
    }

    @Test("encoding stamps the stored name and schema version")
    func encoding() throws {
        let event = try EventCatalog.encode(ItemPosted(title: "Desk", priceMinor: 1, currency: "GBP"), metadata: .init(actorId: "a"))
        #expect(event.type == "ItemPosted")
        #expect(event.schemaVersion == 2)
        #expect(event.metadata.actorId == "a")
        let back = try catalog.decode(stored(event.type, version: event.schemaVersion, String(decoding: event.data, as: UTF8.self)))
        #expect(back as? ItemPosted == ItemPosted(title: "Desk", priceMinor: 1, currency: "GBP"))
    }

    @Test("the shared catalog knows the operations events")
    func sharedCatalog() throws {
        let parked = EventParked(projection: "listings", eventId: UUID(), reason: "bad data")
        let event = try EventCatalog.encode(parked)
        let decoded = try CommonsEvents.catalog.decode(stored(event.type, version: 1, String(decoding: event.data, as: UTF8.self)))
        #expect(decoded as? EventParked == parked)
    }
}

@Suite("Commons event upcasters")
struct CommonsUpcasterTests {
    @Test("reservations and sign-ins of schema 1 name their account in clear; schema 2 seals it or names none")
    func addressStreams() throws {
        let account = UUID()
        let reserved = try #require(
            try CommonsEvents.catalog.decode(stored("EmailReserved", version: 1, #"{"accountId":"\#(account)"}"#)) as? EmailReserved)
        #expect(reserved.accountId == account && reserved.account == nil)
        let released = try CommonsEvents.catalog.decode(stored("EmailReleased", version: 1, #"{"accountId":"\#(account)"}"#))
        #expect((released as? EmailReleased)?.accountId == account)
        let succeeded = try CommonsEvents.catalog.decode(
            stored("SignInSucceeded", version: 1, #"{"accountId":"\#(account)","at":"2026-11-20T10:00:00Z"}"#))
        #expect((succeeded as? SignInSucceeded)?.accountId == account)

        let sealed = EmailReserved(account: Sealed(keyId: UUID(), box: "b3BhcXVl"))
        for event in [try EventCatalog.encode(sealed), try EventCatalog.encode(EmailReleased()), try EventCatalog.encode(SignInSucceeded(at: .now))] {
            #expect(event.schemaVersion == 2)
            #expect(!String(decoding: event.data, as: UTF8.self).contains("accountId"), "\(event.type) names no account")
        }
        let encoded = try EventCatalog.encode(sealed)
        #expect(
            try CommonsEvents.catalog.decode(stored("EmailReserved", version: 2, String(decoding: encoded.data, as: UTF8.self))) as? EmailReserved
                == sealed)
    }

    @Test("a report of schema 1 keeps its reason in clear; schema 2 carries it sealed")
    func listingReported() throws {
        let (report, listing, reporter) = (UUID(), UUID(), UUID())
        let v1 =
            #"{"reportId":"\#(report)","listingId":"\#(listing)","reporterId":"\#(reporter)","reason":"Scam","reportedAt":"2026-11-20T10:00:00Z"}"#
        let old = try #require(try CommonsEvents.catalog.decode(stored("ListingReported", version: 1, v1)) as? ListingReported)
        #expect(old.reportId == report && old.listingId == listing && old.reporterId == reporter)
        #expect(old.clearReason == "Scam" && old.reason == nil)
        #expect(old.reportedAt == ISO8601DateFormatter().date(from: "2026-11-20T10:00:00Z"))

        let sealed = Sealed(keyId: reporter, box: "b3BhcXVl")
        let new = ListingReported(
            reportId: report, listingId: listing, reporterId: reporter, reason: sealed, reportedAt: Date(timeIntervalSince1970: 0))
        let encoded = try EventCatalog.encode(new)
        #expect(encoded.schemaVersion == 2 && !String(decoding: encoded.data, as: UTF8.self).contains("clearReason"))
        let decoded = try CommonsEvents.catalog.decode(stored("ListingReported", version: 2, String(decoding: encoded.data, as: UTF8.self)))
        #expect(decoded as? ListingReported == new)
    }

    @Test("a listing of schema 1 reads in both forms it was stored in (text in clear, or sealed); schema 2 carries it sealed")
    func listingPosted() throws {
        let (listing, owner) = (UUID(), UUID())
        let common =
            #""category":"Books","listingId":"\#(listing)","ownerId":"\#(owner)","postedAt":"2026-09-21T12:34:56Z","publicLocation":{"lat":52.37,"lon":4.89}"#
        let shipped = try #require(
            try CommonsEvents.catalog.decode(stored("ListingPosted", version: 1, #"{\#(common),"title":"Oak chair","description":"Sturdy"}"#))
                as? ListingPosted)
        #expect(shipped.listingId == listing && shipped.ownerId == owner && shipped.category == "Books")
        #expect(shipped.title == "Oak chair" && shipped.description == "Sturdy" && shipped.text == nil)
        let sealed = Sealed(keyId: owner, box: "b3BhcXVl")
        let sealedInPlace = try #require(
            try CommonsEvents.catalog.decode(
                stored("ListingPosted", version: 1, #"{\#(common),"text":{"keyId":"\#(owner)","box":"b3BhcXVl"}}"#)) as? ListingPosted)
        #expect(sealedInPlace.text == sealed && sealedInPlace.title == nil)

        let new = ListingPosted(
            listingId: listing, ownerId: owner, title: nil, description: nil, text: sealed, category: "Books", price: nil,
            publicLocation: Coordinate(lat: 52.37, lon: 4.89), postedAt: Date(timeIntervalSince1970: 0))
        let encoded = try EventCatalog.encode(new)
        #expect(encoded.schemaVersion == 2 && !String(decoding: encoded.data, as: UTF8.self).contains("title"))
        #expect(
            try CommonsEvents.catalog.decode(stored("ListingPosted", version: 2, String(decoding: encoded.data, as: UTF8.self))) as? ListingPosted
                == new)
    }

    @Test("an edit of schema 1 reads in both forms it was stored in; schema 2 carries its text sealed")
    func listingEdited() throws {
        let (listing, owner) = (UUID(), UUID())
        let common = #""category":"Books","listingId":"\#(listing)","publicLocation":{"lat":52.37,"lon":4.89}"#
        let shipped = try #require(
            try CommonsEvents.catalog.decode(stored("ListingEdited", version: 1, #"{\#(common),"title":"Oak chair","description":"Sturdy"}"#))
                as? ListingEdited)
        #expect(shipped.title == "Oak chair" && shipped.description == "Sturdy" && shipped.text == nil)
        let sealedInPlace = try #require(
            try CommonsEvents.catalog.decode(
                stored("ListingEdited", version: 1, #"{\#(common),"text":{"keyId":"\#(owner)","box":"b3BhcXVl"}}"#)) as? ListingEdited)
        #expect(sealedInPlace.text == Sealed(keyId: owner, box: "b3BhcXVl") && sealedInPlace.title == nil)
        let new = ListingEdited(
            listingId: listing, title: nil, description: nil, text: Sealed(keyId: owner, box: "b3BhcXVl"), category: "Books",
            price: nil, publicLocation: Coordinate(lat: 52.37, lon: 4.89))
        #expect(try EventCatalog.encode(new).schemaVersion == 2)
    }

    @Test("a session of schema 1 keeps its device name in clear; schema 2 carries it sealed")
    func sessionStarted() throws {
        let (session, account) = (UUID(), UUID())
        let v1 =
            #"{"sessionId":"\#(session)","accountId":"\#(account)","device":"Pixel 9","refreshTokenHash":"h","startedAt":"2026-11-20T10:00:00Z"}"#
        let old = try #require(try CommonsEvents.catalog.decode(stored("SessionStarted", version: 1, v1)) as? SessionStarted)
        #expect(old.sessionId == session && old.accountId == account && old.refreshTokenHash == "h")
        #expect(old.clearDevice == "Pixel 9" && old.device == nil)

        let new = SessionStarted(
            sessionId: session, accountId: account, device: Sealed(keyId: account, box: "b3BhcXVl"),
            refreshTokenHash: "h", startedAt: Date(timeIntervalSince1970: 0))
        let encoded = try EventCatalog.encode(new)
        #expect(encoded.schemaVersion == 2 && !String(decoding: encoded.data, as: UTF8.self).contains("clearDevice"))
        let decoded = try CommonsEvents.catalog.decode(stored("SessionStarted", version: 2, String(decoding: encoded.data, as: UTF8.self)))
        #expect(decoded as? SessionStarted == new)
    }
}
