import Contracts
import Foundation
import ListingsDomain
import Testing

@Suite("one request per person and listing")
struct RequestLedgerTests {
    static func requested(by requester: UUID, on listing: UUID) -> ListingRequested {
        ListingRequested(
            requestId: UUID(), listingId: listing, requesterId: requester,
            message: Sealed(keyId: requester, box: "opaque"), requestedAt: Date(timeIntervalSince1970: 1_800_000_000))
    }

    @Test("a person who asked already is refused; anyone else is admitted; the ledger keeps the version it was read at")
    func secondRequestRefused() throws {
        let (listing, ada, bob) = (UUID(), UUID(), UUID())
        let ledger = RequestLedger.replay([Self.requested(by: ada, on: listing)], version: 1)
        #expect(ledger.version == 1)
        #expect(throws: ListingError.alreadyRequested) { try ledger.admit(ada) }
        try ledger.admit(bob)
        try RequestLedger.replay([], version: 0).admit(ada)
    }
}
