import Contracts
import EventLog
import Foundation
import Testing

/// The value shapes events share with the API (`Contracts/APIShapes.swift`) are stored in
/// events, which never change: their stored form is held here, member by member.
@Suite("shapes events share with the API")
struct StoredShapesTests {
    @Test("pickup times, a rating, opening hours and a point are stored as events always stored them, and read back")
    func storedForm() throws {
        let details = ListingDetailsSet(
            listingId: UUID(uuidString: "6f1c1b7e-1d2a-4c3b-9e8f-0a1b2c3d4e5f")!, condition: "good",
            pickupTimes: PickupTimes(
                note: "Evenings",
                windows: [PickupWindow(startsAt: Date(timeIntervalSince1970: 1_800_000_000), endsAt: Date(timeIntervalSince1970: 1_800_003_600))]),
            imageIds: [])
        let stored = String(decoding: try EventCatalog.encode(details).data, as: UTF8.self)
        #expect(
            stored.contains(#""pickupTimes":{"note":"Evenings","windows":[{"endsAt":"2027-01-15T09:00:00Z","startsAt":"2027-01-15T08:00:00Z"}]}"#),
            "\(stored)")

        let profile = OrganizationProfileChanged(
            organizationId: UUID(), mission: "m", description: "", homepage: nil, logoImageId: nil, categories: [],
            rating: OrganizationRating(value: 4, scale: 4, source: "Charity Navigator", date: "2026-01-02"), currency: "USD",
            minimumDonationMinor: 100, suggestedAmountsMinor: [], openingHours: [OpeningHours(day: "mon", opens: "09:00", closes: "17:00")])
        let written = String(decoding: try EventCatalog.encode(profile).data, as: UTF8.self)
        #expect(written.contains(#""openingHours":[{"closes":"17:00","day":"mon","opens":"09:00"}]"#), "\(written)")
        #expect(written.contains(#""rating":{"date":"2026-01-02","scale":4,"source":"Charity Navigator","value":4}"#), "\(written)")

        let point = try JSONDecoder().decode(Coordinate.self, from: Data(#"{"lat":52.5,"lon":13.4}"#.utf8))
        #expect(point == Coordinate(lat: 52.5, lon: 13.4))
        #expect(String(decoding: try EventJSON.encoder().encode(point), as: UTF8.self) == #"{"lat":52.5,"lon":13.4}"#)
    }
}
