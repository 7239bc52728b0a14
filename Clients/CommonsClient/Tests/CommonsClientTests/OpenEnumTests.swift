import Foundation
import Testing

@testable import CommonsClient

@Suite("open enums")
struct OpenEnumTests {
    /// A listing as a newer server might send it: a category, condition, status and
    /// currency this SDK has never heard of.
    static let fromTheFuture = """
        {"id":"6f1c8e2a-3b4d-4e5f-8a9b-0c1d2e3f4a5b","ownerId":"\(Answers.accountId.uuidString)","title":"Seedlings",\
        "description":"Tomatoes","category":"Garden","condition":"refurbished","price":{"amountMinor":1500,"currency":"SEK"},\
        "free":false,"pickupTimes":{"windows":[]},"imageIds":[],"images":[],"status":"reserved",\
        "approximateLocation":{"lat":52.5,"lon":13.4},"postedAt":"2026-11-22T10:00:00Z","version":2}
        """

    @Test("values a newer server added decode, are not known, and go back out as they came")
    func unknownValuesRoundTrip() throws {
        let listing = try CommonsJSON.decoder.decode(Listing.self, from: Data(Self.fromTheFuture.utf8))
        #expect(listing.category == "Garden")
        #expect(listing.condition.rawValue == "refurbished")
        #expect(listing.status == ListingStatus(rawValue: "reserved"))
        #expect(listing.price?.currency == "SEK")
        #expect(!listing.category.isKnown && !listing.condition.isKnown && !listing.status.isKnown)
        #expect(listing.price?.currency.isKnown == false)
        #expect(listing.price?.currency.isWellFormed == true)

        let again = try CommonsJSON.decoder.decode(Listing.self, from: try CommonsJSON.encoder.encode(listing))
        #expect(again == listing)
        let sent = try #require(try JSONSerialization.jsonObject(with: CommonsJSON.encoder.encode(listing)) as? [String: Any])
        #expect(sent["category"] as? String == "Garden")
        #expect(sent["condition"] as? String == "refurbished")
        #expect(sent["status"] as? String == "reserved")
        #expect((sent["price"] as? [String: Any])?["currency"] as? String == "SEK")
    }

    @Test("on the wire a value is a bare JSON string, exactly as a String field was")
    func wireFormat() throws {
        let listing = NewListing(
            title: "Chair", category: .furniture, condition: .likeNew, price: Money(amountMinor: 900, currency: .eur),
            pickupLocation: Coordinate(lat: 52.5, lon: 13.4))
        let text = String(decoding: try CommonsJSON.encoder.encode(listing), as: UTF8.self)
        #expect(text.contains(#""category":"Furniture""#))
        #expect(text.contains(#""condition":"likeNew""#))
        #expect(text.contains(#""currency":"EUR""#))
        #expect(String(decoding: try JSONEncoder().encode(ListingStatus.sold), as: UTF8.self) == #""sold""#)
        #expect(try JSONDecoder().decode([ListingStatus].self, from: Data(#"["given","lost"]"#.utf8)) == [.given, "lost"])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ListingStatus.self, from: Data("3".utf8)) }
    }

    @Test("the known values are the services' own, and a literal is the value it names")
    func knownValues() {
        #expect(
            ListingCategory.known.map(\.rawValue) == [
                "Clothes", "Electronics", "Food", "Furniture", "Sports", "Toys", "Books",
                "Household", "Other",
            ])
        #expect(ItemCondition.known.map(\.rawValue) == ["new", "likeNew", "good", "fair", "forParts"])
        #expect(ListingStatus.known.map(\.rawValue) == ["available", "promised", "given", "sold", "withdrawn", "expired", "hidden"])
        #expect(CurrencyCode.known.allSatisfy { $0.isWellFormed })
        #expect(ListingStatus.known.allSatisfy { $0.isKnown })
        let literal: ListingStatus = "promised"
        #expect(literal == .promised)
        #expect("\(ListingCategory.toys)" == "Toys", "interpolation shows the raw value")
        #expect(CurrencyCode("eur").isWellFormed == false)
        #expect(CurrencyCode("EURO").isWellFormed == false)
    }

    @Test("filters are sent by raw value; several statuses go comma-separated")
    func queries() async throws {
        let page = #"{"items":[],"nextCursor":null}"#
        let transport = ScriptedTransport([.respond(.json(200, page)), .respond(.json(200, page))])
        let commons = client(transport)
        _ = try await commons.listings.feed(
            ListingFeedQuery(
                category: .books, currency: .eur, statuses: [.available, .promised],
                sort: "price", order: "desc"))
        let feed = try #require(URLComponents(url: transport.sent[0].url, resolvingAgainstBaseURL: false)?.queryItems)
        #expect(feed.first { $0.name == "category" }?.value == "Books")
        #expect(feed.first { $0.name == "sort" }?.value == "price" && feed.first { $0.name == "order" }?.value == "desc")
        #expect(feed.first { $0.name == "currency" }?.value == "EUR")
        #expect(feed.first { $0.name == "status" }?.value == "available,promised")
        _ = try await commons.geo.nearbyListings(lat: 52.5, lon: 13.4, ListingSearchFilters(category: "Garden", status: .promised))
        let search = try #require(URLComponents(url: transport.sent[1].url, resolvingAgainstBaseURL: false)?.queryItems)
        #expect(search.first { $0.name == "category" }?.value == "Garden")
        #expect(search.first { $0.name == "status" }?.value == "promised")
    }

    @Test("a list change of a kind and a command status a newer server added decode, are not known, and go back out as they came")
    func listShapesFromTheFuture() throws {
        let change = try CommonsJSON.decoder.decode(
            ListChange.self, from: Data(#"{"version":9,"type":"ShoppingListItemPinned","at":"2026-11-22T10:00:00Z"}"#.utf8))
        #expect(change.type == "ShoppingListItemPinned" && !change.type.isKnown)
        #expect(try CommonsJSON.decoder.decode(ListChange.self, from: CommonsJSON.encoder.encode(change)) == change)
        let known = try CommonsJSON.decoder.decode(
            ListChange.self, from: Data(#"{"version":3,"type":"ShoppingListItemCheckSet","at":"2026-11-22T10:00:00Z"}"#.utf8))
        #expect(known.type == .itemCheckSet && known.type.isKnown)

        let results = try CommonsJSON.decoder.decode(
            ListCommandResults.self, from: Data(#"{"results":{"a":{"status":"applied"},"b":{"status":"deferred"}},"version":4}"#.utf8))
        #expect(results.results["a"]?.status == .applied)
        #expect(results.results["b"]?.status == "deferred" && results.results["b"]?.status.isKnown == false)
        let sent = try #require(try JSONSerialization.jsonObject(with: CommonsJSON.encoder.encode(results)) as? [String: Any])
        #expect(((sent["results"] as? [String: Any])?["b"] as? [String: Any])?["status"] as? String == "deferred")
        #expect(ListCommandStatus.known.map(\.rawValue) == ["applied", "rejected"])
    }

    @Test("wallet entry and organisation kinds, donor visibility and listing change kinds a newer server added decode and go back out as they came")
    func kindsAndVisibilityFromTheFuture() throws {
        let entry = try CommonsJSON.decoder.decode(
            Wallet.Entry.self,
            from: Data(
                #"{"id":"6f1f1d2e-8f5a-4a43-9d1e-0c3a1b2c3d4e","kind":"refund","amountMinor":500,"currency":"EUR","at":"2026-11-22T10:00:00Z"}"#.utf8)
        )
        #expect(entry.kind == "refund" && !entry.kind.isKnown)
        let sent = try #require(try JSONSerialization.jsonObject(with: CommonsJSON.encoder.encode(entry)) as? [String: Any])
        #expect(sent["kind"] as? String == "refund")
        #expect(WalletEntryKind.topUp.rawValue == "top-up" && WalletEntryKind.topUp.isKnown)

        let change = try CommonsJSON.decoder.decode(
            ListingChangeEntry.self, from: Data(#"{"listingId":"listing-1","kind":"archived","changedAt":"2026-11-22T10:00:00Z"}"#.utf8))
        #expect(change.kind == "archived" && !change.kind.isKnown)
        #expect(ListingChangeKind.known.map(\.rawValue) == ["created", "edited", "statusChanged", "withdrawn", "removed"])

        #expect(OrganizationKind(rawValue: "cooperative").isKnown == false && OrganizationKind.centre.isKnown)
        #expect(DonorVisibility(rawValue: "friends").isKnown == false && DonorVisibility.anonymous.isKnown)
        let gift = NewDonation(organization: "clean-water", amountMinor: 500, currency: "EUR", visibility: .anonymous)
        let body = try #require(try JSONSerialization.jsonObject(with: CommonsJSON.encoder.encode(gift)) as? [String: Any])
        #expect(body["visibility"] as? String == "anonymous")
    }
}
