import DonationsService
import ServiceTestSupport
import Testing

/// The OpenAPI document describes every body the service answers with; the harness holds
/// each reply of the other tests against those schemas.
@Suite("donations: documented response bodies")
struct DonationsContractTests {
    @Test("every answer with a body declares its schema")
    func everyBodyHasASchema() {
        #expect(APIContract.answersWithoutSchema(in: DonationsService.openAPI) == [])
    }

    @Test("the example of every request body conforms to its schema")
    func examplesConform() {
        #expect(APIContract.examplesNotConforming(in: DonationsService.openAPI) == [])
    }
}
