import AccountsService
import ServiceTestSupport
import Testing

/// The OpenAPI document describes every answer's body, so the harness can hold each reply to it.
@Suite("accounts: API contract")
struct AccountsContractTests {
    @Test("every 2xx answer with a body declares its schema")
    func everyBodyDescribed() {
        #expect(APIContract.answersWithoutSchema(in: AccountsService.openAPI) == [])
    }

    @Test("the example of every request body conforms to its schema")
    func examplesConform() {
        #expect(APIContract.examplesNotConforming(in: AccountsService.openAPI) == [])
    }
}
