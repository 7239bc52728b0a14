import Foundation
import Testing

@testable import CommonsClient

@Suite("read-your-writes positions")
struct PositionTrackingTests {
    @Test("the highest position wins, compared as numbers, never as text")
    func highest() {
        let tracker = PositionTracker()
        #expect(tracker.current == nil)
        tracker.observe("812:1042")
        tracker.observe("812:999") // lower: ignored
        #expect(tracker.current == "812:1042")
        tracker.observe("1000:5") // "1000" < "812" as text, higher as a number
        #expect(tracker.current == "1000:5")
        tracker.observe("999:99999")
        #expect(tracker.current == "1000:5")
        tracker.observe("0:7")
        #expect(tracker.current == "1000:5")
    }

    @Test("a position of another shape is taken as newer, so tracking never gets stuck")
    func unknownFormat() {
        let tracker = PositionTracker("3:4")
        tracker.observe("opaque-token")
        #expect(tracker.current == "opaque-token")
        tracker.observe("")
        #expect(tracker.current == "opaque-token")
    }

    @Test("a write's position is sent as Commons-Min-Position on later reads of any service")
    func carriedAcrossServices() async throws {
        let transport = ScriptedTransport([
            .respond(Answers.topUp), // donations, a write at 9:120
            .respond(.json(200, #"{"items":[],"nextCursor":null}"#)), // geo-search, a read
            .respond(.json(200, #"{"items":[],"nextCursor":null}"#)),
        ])
        let commons = client(transport, tokens: signedIn)
        #expect(transport.sent.isEmpty)
        _ = try await commons.donations.topUp(amountMinor: 2_500, currency: "USD", cardNumber: "4242424242424242")
        #expect(transport.sent[0].headers["Commons-Min-Position"] == nil, "nothing written before it")
        let page = try await commons.geo.nearbyListings(lat: 52.5, lon: 13.4, radius: 2)
        #expect(page.items.isEmpty)
        #expect(transport.sent[1].headers["Commons-Min-Position"] == "9:120")
        #expect(transport.sent[1].url.path == "/v1/nearby/listings")
        _ = try await commons.listings.feed()
        #expect(transport.sent[2].headers["Commons-Min-Position"] == "9:120")
        #expect(commons.positions.current == "9:120")
    }
}
