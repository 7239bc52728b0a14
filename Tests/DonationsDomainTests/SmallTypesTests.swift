import Codecs
import Contracts
import DonationsDomain
import Foundation
import Testing

@Suite("cards, months, cursors and monthly donations")
struct SmallTypesTests {
    @Test("card numbers need a valid Luhn digit; only brand and last four are kept")
    func cards() {
        #expect(CardNumber("4242 4242 4242 4242")?.last4 == "4242")
        #expect(CardNumber("4242-4242-4242-4242")?.brand == "visa")
        #expect(CardNumber("4242 4242 4242 4241") == nil)
        #expect(CardNumber("4242") == nil)
        #expect(CardNumber("abcd abcd abcd abcd") == nil)
    }

    @Test("months read and write YYYY-MM, follow each other and come from dates in UTC")
    func months() {
        #expect(Month("2026-12")?.next.description == "2027-01")
        #expect(Month("2026-13") == nil)
        #expect(Month(containing: Date(timeIntervalSince1970: 1_805_364_000)).description == "2027-03")
        #expect(Month("2026-01")! < Month("2026-02")!)
    }

    @Test("a cursor gives back its sort key and id for its own list; another list's, or anything else, is refused")
    func cursors() throws {
        let id = UUID()
        let cursor = ListCursor.encode(sortKey: "Against Malaria\nFoundation", id: id, list: "organizations|a")
        let decoded = try ListCursor.decode(cursor, list: "organizations|a")
        #expect(decoded.id == id && decoded.sortKey == "Against Malaria\nFoundation")
        #expect(throws: OpaqueCursor.Refusal.otherQuery) { try ListCursor.decode(cursor, list: "organizations|b") }
        #expect(throws: OpaqueCursor.Refusal.malformed) { try ListCursor.decode("not a cursor", list: "organizations|a") }
    }

    @Test("a monthly donation is due from its first month until cancelled; its amount changes")
    func recurring() throws {
        let id = UUID(), account = UUID(), organization = UUID()
        let now = Date(timeIntervalSince1970: 1_805_364_000)
        var state = RecurringState.replay([
            RecurringDonationCreated(
                recurringId: id, accountId: account, organizationId: organization, amountMinor: 1_000,
                currency: "USD", visibility: .public, startMonth: "2027-03", at: now)
        ])
        #expect(state.isDue(in: Month("2027-03")!))
        #expect(!state.isDue(in: Month("2027-02")!))
        #expect(throws: DonationsError.recurringNotFound) { try state.owned(by: UUID()) }
        let cancelled = try #require(try state.cancel(now: now))
        state.evolve(cancelled)
        #expect(!state.isDue(in: Month("2027-04")!))
        #expect(try state.cancel(now: now) == nil)
    }
}
