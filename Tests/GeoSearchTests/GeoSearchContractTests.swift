import GeoSearchService
import ServiceTestSupport
import Testing

/// The OpenAPI document describes every answer's body, so the harness can hold each reply to it.
@Suite("geo-search: API contract")
struct GeoSearchContractTests {
    @Test("every 2xx answer with a JSON body declares its schema")
    func everyBodyDescribed() {
        // The match stream is text/event-stream; each event's data is a match as GET /v1/alerts/matches lists it.
        #expect(APIContract.answersWithoutSchema(in: GeoSearchService.openAPI, except: ["GET /v1/alerts/stream"]) == [])
    }

    @Test("the example of every request body conforms to its schema")
    func examplesConform() {
        #expect(APIContract.examplesNotConforming(in: GeoSearchService.openAPI) == [])
    }
}
