import ListingsService
import ServiceTestSupport
import Testing

/// The OpenAPI document describes every answer's body, so the harness can hold each reply to it.
@Suite("listings: API contract")
struct ListingsContractTests {
    @Test("every 2xx answer with a JSON body declares its schema")
    func everyBodyDescribed() {
        // An image is served as its own bytes (image/jpeg, png or webp), not JSON.
        #expect(APIContract.answersWithoutSchema(in: ListingsService.openAPI, except: ["GET /v1/images/{id}"]) == [])
    }

    @Test("the example of every request body conforms to its schema")
    func examplesConform() {
        #expect(APIContract.examplesNotConforming(in: ListingsService.openAPI) == [])
    }
}
