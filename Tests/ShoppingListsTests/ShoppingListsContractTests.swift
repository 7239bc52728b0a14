import ServiceTestSupport
import ShoppingListsService
import Testing

/// The OpenAPI document describes every body the service answers with; the harness holds
/// each reply of the other tests against those schemas.
@Suite("shopping lists: documented response bodies")
struct ShoppingListsContractTests {
    @Test("every answer with a body declares its schema, but the event streams', which are not JSON")
    func everyBodyHasASchema() {
        #expect(
            APIContract.answersWithoutSchema(in: ShoppingListsService.openAPI, except: ["GET /v1/lists/{id}/events", "GET /v1/lists/events"]) == [])
    }

    @Test("the example of every request body conforms to its schema")
    func examplesConform() {
        #expect(APIContract.examplesNotConforming(in: ShoppingListsService.openAPI) == [])
    }
}
