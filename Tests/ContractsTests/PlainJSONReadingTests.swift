import Contracts
import EventLog
import Foundation
import Testing

/// `ListingPosted` is read without `JSONDecoder` when its JSON is plain (issue 17); whatever it
/// reads must be exactly what the decoder reads, and whatever it declines the decoder still reads.
@Suite("events read from plain JSON, as JSONDecoder reads them")
struct PlainJSONReadingTests {
    private func plain(_ json: Data) -> ListingPosted? {
        json.withUnsafeBytes { ListingPosted(plainJSON: $0) }
    }

    private func decoded(_ json: Data) throws -> ListingPosted {
        try EventJSON.decoder().decode(ListingPosted.self, from: json)
    }

    private static func randomListing(using generator: inout some RandomNumberGenerator) -> ListingPosted {
        let texts = ["", "Sofa", "Vélo d'enfant 🚲", "a/b <c> & d", String(repeating: "x", count: 300)]
        let sealed = Bool.random(using: &generator)
        let free = Bool.random(using: &generator)
        return ListingPosted(
            listingId: UUID(), ownerId: UUID(),
            title: sealed ? nil : texts.randomElement(using: &generator), description: sealed ? nil : texts.randomElement(using: &generator),
            text: sealed
                ? Sealed(
                    keyId: UUID(),
                    box: Data((0..<Int.random(in: 20...90, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) })
                        .base64EncodedString()) : nil,
            category: ["Furniture", "Books", "Ünïcode"].randomElement(using: &generator)!,
            price: free ? nil : Money(amountMinor: Int.random(in: -5...Int.max / 2, using: &generator), currency: "EUR"),
            publicLocation: Coordinate(
                lat: Double.random(in: -90...90, using: &generator),
                lon: [0, -0.0, 180, 1e-7, Double.random(in: -180...180, using: &generator)].randomElement(using: &generator)!),
            postedAt: Date(timeIntervalSince1970: Double(Int64.random(in: -2_000_000_000...4_000_000_000, using: &generator))))
    }

    @Test("2,000 random listings as the log stores them: read plainly, and equal to the decoder's reading")
    func randomListings() throws {
        var generator = SystemRandomNumberGenerator()
        let encoder = EventJSON.encoder()
        for _ in 0..<2_000 {
            let listing = Self.randomListing(using: &generator)
            let json = try encoder.encode(listing)
            let read = try #require(plain(json), "declined \(String(decoding: json, as: UTF8.self))")
            #expect(read == (try decoded(json)))
            #expect(read.publicLocation.lon.sign == (try decoded(json)).publicLocation.lon.sign)
        }
    }

    @Test(
        "spacing, key order, nulls and numbers in other forms: read, and as the decoder reads them",
        arguments: [
            #"{ "title" : null, "publicLocation": {"lon": -122, "lat": 37.5e0}, "postedAt": "2026-09-21T12:34:56Z", "ownerId": "6F9619FF-8B86-D011-B42D-00C04FC964FF", "listingId": "6f9619ff-8b86-d011-b42d-00c04fc964fe", "category": "Books", "price": null, "description": "d" }"#,
            #"{"category":"Books","listingId":"6f9619ff-8b86-d011-b42d-00c04fc964fe","ownerId":"6f9619ff-8b86-d011-b42d-00c04fc964ff","postedAt":"1969-12-31T23:59:59Z","price":{"amountMinor":-0,"currency":"GBP"},"publicLocation":{"lat":-0.0,"lon":1E+2}}"#,
        ])
    func otherForms(json: String) throws {
        let read = try #require(plain(Data(json.utf8)))
        #expect(read == (try decoded(Data(json.utf8))))
    }

    @Test(
        "what the plain reading declines goes to the decoder, which reads it or refuses it",
        arguments: [
            // Escapes, a fractional amount, a date with a fraction or an offset, an unknown or repeated key: the decoder reads these.
            #"{"category":"Bo\"oks","listingId":"6f9619ff-8b86-d011-b42d-00c04fc964fe","ownerId":"6f9619ff-8b86-d011-b42d-00c04fc964ff","postedAt":"2026-09-21T12:34:56Z","publicLocation":{"lat":1,"lon":2}}"#,
            #"{"category":"Books","listingId":"6f9619ff-8b86-d011-b42d-00c04fc964fe","ownerId":"6f9619ff-8b86-d011-b42d-00c04fc964ff","postedAt":"2026-09-21T12:34:56+02:00","publicLocation":{"lat":1,"lon":2}}"#,
            #"{"category":"Books","colour":"red","listingId":"6f9619ff-8b86-d011-b42d-00c04fc964fe","ownerId":"6f9619ff-8b86-d011-b42d-00c04fc964ff","postedAt":"2026-09-21T12:34:56Z","publicLocation":{"lat":1,"lon":2}}"#,
            #"{"category":"Books","category":"Toys","listingId":"6f9619ff-8b86-d011-b42d-00c04fc964fe","ownerId":"6f9619ff-8b86-d011-b42d-00c04fc964ff","postedAt":"2026-09-21T12:34:56Z","publicLocation":{"lat":1,"lon":2}}"#,
            #"{"category":"Books","listingId":"6f9619ff-8b86-d011-b42d-00c04fc964fe","ownerId":"6f9619ff-8b86-d011-b42d-00c04fc964ff","postedAt":"2026-09-21T12:34:56Z","price":{"amountMinor":100.0,"currency":"EUR"},"publicLocation":{"lat":1,"lon":2}}"#,
            // Not a listing at all, or not JSON: the decoder refuses these.
            #"{"category":"Books","listingId":"not-an-id","ownerId":"6f9619ff-8b86-d011-b42d-00c04fc964ff","postedAt":"2026-09-21T12:34:56Z","publicLocation":{"lat":1,"lon":2}}"#,
            #"{"category":"Books","listingId":"6f9619ff-8b86-d011-b42d-00c04fc964fe","ownerId":"6f9619ff-8b86-d011-b42d-00c04fc964ff","postedAt":"2026-02-30T12:34:56Z","publicLocation":{"lat":1,"lon":2}}"#,
            #"{"category":"Books","listingId":"6f9619ff-8b86-d011-b42d-00c04fc964fe","ownerId":"6f9619ff-8b86-d011-b42d-00c04fc964ff","postedAt":"2026-09-21T12:34:56Z","publicLocation":{"lat":01,"lon":2}}"#,
            #"{"category":"Books","listingId":"6f9619ff-8b86-d011-b42d-00c04fc964fe","ownerId":"6f9619ff-8b86-d011-b42d-00c04fc964ff","postedAt":"2026-09-21T12:34:56Z","publicLocation":{"lat":1,"lon":2}"#,
            #"{"category":"Books","listingId":"6f9619ff-8b86-d011-b42d-00c04fc964fe","postedAt":"2026-09-21T12:34:56Z","publicLocation":{"lat":1,"lon":2}}"#,
            #"{"category":"Books","listingId":"6f9619ff-8b86-d011-b42d-00c04fc964fe","ownerId":"6f9619ff-8b86-d011-b42d-00c04fc964ff","postedAt":"2026-09-21T12:34:56Z","price":{"amountMinor":99999999999999999999,"currency":"EUR"},"publicLocation":{"lat":1,"lon":2}}"#,
        ])
    func declined(json: String) throws {
        let data = Data(json.utf8)
        #expect(plain(data) == nil)
        // Through the catalogue, the answer is the decoder's, whichever it is.
        let event = RecordedEvent(
            checkpoint: .start, stream: "listing-x", version: 1, id: UUID(), type: ListingPosted.eventType,
            schemaVersion: 1, data: data, metadata: .init(), recordedAt: Date())
        switch Result(catching: { try decoded(data) }) {
        case .success(let reference): #expect(try CommonsEvents.catalog.decode(event) as? ListingPosted == reference)
        case .failure: #expect(throws: (any Error).self) { try CommonsEvents.catalog.decode(event) }
        }
    }
}
