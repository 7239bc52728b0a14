import CommonsAPI
import Contracts
import Foundation
import ServiceKit
import ServiceTestSupport
import Testing

@testable import DonationsService

/// A donation writes its own JSON (issue 17); the bytes must be those its `Encodable`
/// conformance gives under the services' `JSONEncoder`, with and without each optional.
@Suite("a donation's JSON, written directly")
struct DonationJSONTests {
    @Test("1,000 random donations, alone and in a page: the same bytes as JSONEncoder")
    func sameBytesAsEncoder() throws {
        var generator = SystemRandomNumberGenerator()
        var page: [Donation] = []
        for _ in 0..<1_000 {
            let view = Donation(
                id: UUID(),
                organization: OrganizationRef(
                    id: UUID(), slug: "bed-nets", name: ["Nets for All", #"The "quoted" \ one"#, "Ärzte ✓"].randomElement(using: &generator)!),
                amountMinor: Int.random(in: 1...10_000_000, using: &generator), currency: [.eur, .usd].randomElement(using: &generator)!,
                visibility: DonationVisibility.allCases.randomElement(using: &generator)!.rawValue,
                message: Bool.random(using: &generator) ? nil : "for the nets\n— with love / thanks",
                recurringId: Bool.random(using: &generator) ? nil : UUID(),
                month: Bool.random(using: &generator) ? nil : "2026-11",
                donatedAt: Date(timeIntervalSince1970: Double(Int64.random(in: 0...4_102_444_800, using: &generator))))
            #expect(try ResponseJSON.encode(view) == foundationJSON(view))
            page.append(view)
        }
        for cursor in [nil, "next/page"] {
            let wrapped = Page(items: Array(page.prefix(20)), nextCursor: cursor)
            #expect(try ResponseJSON.encode(wrapped) == foundationJSON(wrapped))
        }
    }
}
