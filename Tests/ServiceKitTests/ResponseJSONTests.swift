import Foundation
import ServiceTestSupport
import Testing

@testable import ServiceKit

/// `ResponseJSON` writes exactly the bytes of `ServiceJSON.encoder`, Foundation's
/// `JSONEncoder` as every service configured it, but for ids in lower case: any other
/// difference would change answers (and the replayed answers of idempotent retries) without
/// anyone asking for it.
@Suite("response JSON, byte for byte as JSONEncoder")
struct ResponseJSONTests {
    private func expectSame<T: Encodable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let ours = try ResponseJSON.encode(value)
        let foundation = try foundationJSON(value)
        #expect(String(decoding: ours, as: UTF8.self) == String(decoding: foundation, as: UTF8.self), sourceLocation: sourceLocation)
    }

    struct Listing: Codable {
        enum Status: String, Codable { case available, promised }
        struct Money: Codable { var amountMinor: Int64; var currency: String }
        struct Place: Codable { var lat: Double; var lon: Double }
        var id: UUID
        var title: String
        var description: String?
        var status: Status
        var price: Money?
        var free: Bool
        var imageIds: [UUID]
        var images: [String: URL]
        var approximateLocation: Place
        var postedAt: Date
        var expiresAt: Date?
        var version: Int64
        var score: Float
        var tiny: Int8
        var big: UInt64
        var thumbnail: Data?
        var tags: Set<String>
    }

    private func listing(_ number: Int, postedAt: Date) -> Listing {
        Listing(
            id: UUID(), title: "Chair \(number) \"oak\" / 50\\50 \u{1} \t\n ünïcödé 🚲", description: number.isMultiple(of: 2) ? nil : "<b>&</b>",
            status: number.isMultiple(of: 3) ? .promised : .available,
            price: number.isMultiple(of: 2) ? Listing.Money(amountMinor: Int64(number) * 150, currency: "EUR") : nil,
            free: number.isMultiple(of: 2), imageIds: (0..<(number % 3)).map { _ in UUID() },
            images: ["feed": URL(string: "https://example.com/images/\(number)?size=feed&x=a/b")!, "Full": URL(string: "/v1/images/\(number)")!],
            approximateLocation: .init(lat: 52.3702 + Double(number) / 1e5, lon: -4.0 + Double(number)),
            postedAt: postedAt, expiresAt: number.isMultiple(of: 2) ? nil : postedAt.addingTimeInterval(86_400 * 30),
            version: Int64(number), score: Float(number) / 7, tiny: -8, big: .max, thumbnail: number == 1 ? Data([0, 1, 2, 250]) : nil,
            tags: ["b", "a"])
    }

    @Test("a page of listings: nested objects, optionals left out, arrays, enums, ids, links, dates, numbers of every kind, awkward text")
    func pageOfListings() throws {
        let postedAt = Date(timeIntervalSince1970: 1_764_150_000.75)
        try expectSame(["items": (1...20).map { listing($0, postedAt: postedAt) }])
        try expectSame((1...3).map { listing($0, postedAt: postedAt) })
        try expectSame(listing(5, postedAt: postedAt))
    }

    @Test("numbers as JSONEncoder writes them, integers in doubles without .0, ids, and scalars on their own")
    func numbersAndScalars() throws {
        for double in [
            0.0, -0.0, 1.0, 5, 0.1, 1.0 / 3, 1e20, 1e21, 1e-7, 123_456_789.123, -52.37, Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude,
        ] {
            try expectSame(["value": double])
            try expectSame(double)
        }
        for float in [Float(0.1), 3.5, 1e10, -2] { try expectSame([float]) }
        try expectSame([Int.min, Int.max, 0, -1])
        try expectSame("just text / with a slash")
        try expectSame(true)
        try expectSame([String?.none, "x"])
        try expectSame([String: Int]())
        try expectSame([[Int]]())
        try expectSame((0..<500).map { _ in UUID() })
        try expectSame([
            "id": UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
            "max": UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255)),
        ])
    }

    @Test("dates in UTC, whole seconds, before 1970 and around leap days; years before the Gregorian calendar go to JSONEncoder")
    func dates() throws {
        let instants: [Double] = [
            0, -1, -86_400.5, 951_782_400, 951_868_799.999, 1_709_164_800, 4_102_444_800, 1_764_150_000.999_9,
            -30_000_000_000, -12_219_292_800, -11_676_096_000, 253_402_300_799, 253_402_300_800,
        ]
        for instant in instants {
            try expectSame(["at": Date(timeIntervalSince1970: instant)])
        }
        for _ in 0..<500 {
            try expectSame([Date(timeIntervalSince1970: .random(in: -2_000_000_000...4_000_000_000))])
        }
    }

    @Test("keys in .sortedKeys order (their UTF-8 bytes), ASCII and beyond")
    func keyOrder() throws {
        try expectSame([
            "b": 1, "a": 2, "B": 3, "A": 4, "a10": 5, "a9": 6, "a09": 7, "_x": 8, "-y": 9, "Zeta": 10, "zeta": 11, "": 12, "item2b": 13,
            "item10a": 14,
        ])
        try expectSame(["ünïcödé": 1, "apple": 2, "Éclair": 3, "e\u{301}clair": 4, "🚲": 5, "z": 6])
        let alphabet = Array("aAbBzZ09_-.19éÉü🚲")
        for _ in 0..<300 {
            var random: [String: Int] = [:]
            for index in 0..<Int.random(in: 0...12) {
                random[String((0..<Int.random(in: 0...5)).map { _ in alphabet.randomElement()! })] = index
            }
            try expectSame(random)
        }
    }

    struct Nested: Encodable {
        var name = "outer"
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            var inner = container.nestedContainer(keyedBy: CodingKeys.self, forKey: .inner)
            try inner.encode("inner", forKey: .name)
        }

        enum CodingKeys: String, CodingKey { case name, inner }
    }

    struct Empty: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }

    @Test("what the writer leaves to JSONEncoder (nested containers, an encode(to:) that writes nothing) comes out the same")
    func handedBack() throws {
        try expectSame(Nested())
        try expectSame(["wrapped": Nested()])
        try expectSame([Empty()])
        try expectSame([1: "integer keys", 2: "two"])
        try expectSame(["decimal": Decimal(string: "12.50")!])
    }

    @Test("a value JSON cannot hold is refused as JSONEncoder refuses it")
    func refusesNonFinite() {
        #expect(throws: (any Error).self) { try ResponseJSON.encode(["x": Double.nan]) }
        #expect(throws: (any Error).self) { try ResponseJSON.encode([Double.infinity]) }
    }
}
