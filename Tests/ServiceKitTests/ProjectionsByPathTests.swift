import ServiceKit
import Testing

@Suite("which projections a read with Commons-Min-Position waits for")
struct ProjectionsByPathTests {
    let all = ["revocations", "places", "alerts"]
    let byPath = ProjectionsByPath(["/v1/nearby/": ["places"], "/v1/nearby/saved/": ["alerts"]])

    @Test("a path under a prefix waits for its projections, and for the revocation list only with credentials")
    func underAPrefix() {
        #expect(byPath.waited(forPath: "/v1/nearby/listings", credentials: false, among: all) == ["places"])
        #expect(byPath.waited(forPath: "/v1/nearby/listings", credentials: true, among: all) == ["revocations", "places"])
    }

    @Test("the longest prefix wins; a path that only starts like one, or any other path, waits for all")
    func longestPrefixAndTheRest() {
        #expect(byPath.waited(forPath: "/v1/nearby/saved/3", credentials: false, among: all) == ["alerts"])
        #expect(byPath.waited(forPath: "/v1/nearbyish", credentials: false, among: all) == all)
        #expect(byPath.waited(forPath: "/v1/alerts", credentials: true, among: all) == all)
        #expect(ProjectionsByPath().waited(forPath: "/v1/nearby/listings", credentials: false, among: all) == all)
    }

    @Test("a prefix without its slashes, or naming a projection the service lacks, is refused")
    func problems() {
        #expect(byPath.problem(among: all) == nil)
        #expect(ProjectionsByPath(["/v1/nearby": ["places"]]).problem(among: all)?.contains("must start and end with /") == true)
        #expect(ProjectionsByPath(["v1/nearby/": ["places"]]).problem(among: all)?.contains("must start and end with /") == true)
        #expect(ProjectionsByPath(["/v1/nearby/": ["place"]]).problem(among: all)?.contains("names place") == true)
    }
}
