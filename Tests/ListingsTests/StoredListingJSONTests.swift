import Contracts
import EventLog
import Foundation
import Testing

@testable import ListingsService

/// A feed row's JSON columns are read without a decoder where they have the projection's
/// shape (issue 17); the result must be the decoders' own, whatever the column holds.
@Suite("a listing row's JSON columns")
struct StoredListingJSONTests {
    private static func randomDate(using generator: inout some RandomNumberGenerator) -> Date {
        // Whole seconds from 1900 to 2200, so that leap years, centuries and 2000 all occur.
        Date(timeIntervalSince1970: Double(Int64.random(in: -2_208_988_800...7_258_118_400, using: &generator)))
    }

    @Test("pickup times as the projection writes them read back as EventJSON's decoder reads them (2,000 random ones)")
    func pickupTimesAsDecoded() throws {
        var generator = SystemRandomNumberGenerator()
        let notes: [String?] = [nil, "", "after 6pm, ring twice", "ünïcödé ✓ 🚲", "say \"hi\" \\ or tab\there", "a/b"]
        for _ in 0..<2_000 {
            let windows = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                PickupWindow(startsAt: Self.randomDate(using: &generator), endsAt: Self.randomDate(using: &generator))
            }
            let times = PickupTimes(note: notes.randomElement(using: &generator)!, windows: windows)
            let text = String(decoding: try EventJSON.encoder().encode(times), as: UTF8.self)
            #expect(StoredListingJSON.pickupTimes(text) == times, "\(text)")
        }
    }

    @Test(
        "other shapes of pickup times: the decoder's answer, or none when it has none",
        arguments: [
            #"{"windows":[]}"#, "{}", "", "null", #"{"windows":[{"startsAt":"2026-02-29T10:00:00Z","endsAt":"2026-03-01T10:00:00Z"}]}"#,
            #"{"windows":[{"startsAt":"2028-02-29T10:00:00Z","endsAt":"2028-03-01T24:00:00Z"}]}"#,
            #"{"windows":[{"startsAt":"2028-02-29T10:00:00.250Z","endsAt":"2028-03-01T10:00:00+02:00"}]}"#,
            #"{ "windows" : [ { "endsAt" : "2031-12-31T23:59:59Z" , "startsAt" : "2000-01-01T00:00:00Z" } ] , "note" : null }"#,
            #"{"windows":[{"startsAt":"2026-01-01T10:00:00Z"}]}"#, #"{"windows":[],"colour":"blue"}"#, #"{"windows":[]} x"#,
        ])
    func otherPickupTimes(text: String) {
        let decoded = (try? EventJSON.decoder().decode(PickupTimes.self, from: Data(text.utf8))) ?? PickupTimes()
        #expect(StoredListingJSON.pickupTimes(text) == decoded)
    }

    @Test(
        "photo ids, as JSONEncoder writes them or in any other form, read as JSONDecoder reads them",
        arguments: [
            "[]", " [ ] ", "", "[1]", #"["not-an-id"]"#, #"["0B6F3C1E-8D2A-4F5B-9C7E-1A2B3C4D5E6F", "0b6f3c1e-8d2a-4f5b-9c7e-1a2b3c4d5e6f"]"#,
            #"["0B6F3C1E-8D2A-4F5B-9C7E-1A2B3C4D5E6F",]"#, #"["0B6F3C1E-8D2A-4F5B-9C7E-1A2B3C4D5E6F""#,
        ])
    func imageIdsAsDecoded(text: String) throws {
        let decoded = (try? JSONDecoder().decode([UUID].self, from: Data(text.utf8))) ?? []
        #expect(StoredListingJSON.imageIds(text) == decoded)
        let ids = (0..<5).map { _ in UUID() }
        #expect(StoredListingJSON.imageIds(String(decoding: try JSONEncoder().encode(ids), as: UTF8.self)) == ids)
    }
}
