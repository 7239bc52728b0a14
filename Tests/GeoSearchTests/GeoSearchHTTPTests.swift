import Contracts
import EventLog
import EventLogTestSupport
import Foundation
import GeoSearchDomain
import GeoSearchService
import Testing

@Suite("geo-search queries over HTTP")
struct GeoSearchHTTPTests {
    static let sf = "lat=37.7749&lon=-122.4194"

    @Test("nearest first, with exact distances to the public points; radius and unit=mi", arguments: Backend.allCases)
    func nearestFirst(backend: Backend) async throws {
        try await GeoSearchHarness(backend: backend).test { client in
            let (sfId, oaklandId, sacramentoId, honoluluId) = (UUID(), UUID(), UUID(), UUID())
            // The listings service sends public points; the cities' own points stand in for them here.
            try await client.post(honoluluId, title: "Honolulu", at: City.honolulu)
            try await client.post(sacramentoId, title: "Sacramento", at: City.sacramento)
            try await client.post(oaklandId, title: "Oakland", at: City.oakland)
            let last = try await client.post(sfId, title: "San Francisco", at: City.sanFrancisco)

            let near = try await client.items("/v1/nearby/listings?\(Self.sf)&radius=200&unit=km", after: last)
            #expect(near.ids == [sfId.key, oaklandId.key, sacramentoId.key])
            let distances = near.compactMap { $0["distanceMeters"] as? Double }
            let expected = [City.sanFrancisco, City.oakland, City.sacramento].map { City.sanFrancisco.point.distanceMeters(to: $0.point) }
            #expect(distances.count == 3)
            for (got, want) in zip(distances, expected) { #expect(abs(got - want) < 1e-6) }
            #expect(distances[0] == 0)
            #expect(abs(distances[1] - 13_400) < 300) // SF–Oakland, about 13.4 km
            #expect(abs(distances[2] - 120_700) < 1_500) // SF–Sacramento, about 121 km
            #expect(near[1]["directionsURL"] as? String == "https://maps.apple.com/?daddr=37.804400,-122.271200")
            #expect(near[1]["lat"] as? Double == City.oakland.lat && near[1]["lon"] as? Double == City.oakland.lon)

            let far = try await client.items("/v1/nearby/listings?\(Self.sf)&radius=5000")
            #expect(far.ids == [sfId.key, oaklandId.key, sacramentoId.key, honoluluId.key])
            let honolulu = try #require(far.last?["distanceMeters"] as? Double)
            #expect(abs(honolulu - 3_850_000) < 30_000)

            // Oakland is 8.3 miles away.
            #expect(try await client.items("/v1/nearby/listings?\(Self.sf)&radius=5&unit=mi").ids == [sfId.key])
            #expect(try await client.items("/v1/nearby/listings?\(Self.sf)&radius=10&unit=mi").ids == [sfId.key, oaklandId.key])
            // The default radius is 10 km.
            #expect(try await client.items("/v1/nearby/listings?\(Self.sf)").ids == [sfId.key])
        }
    }

    @Test("a result carries its first photo and its pickup times, nearest first and by area; an edit replaces them", arguments: Backend.allCases)
    func photoAndPickupTimes(backend: Backend) async throws {
        try await GeoSearchHarness(backend: backend).test { client in
            let (owner, chair, lamp) = (UUID(), UUID(), UUID())
            let (photo, second) = (UUID(), UUID())
            let window = Contracts.PickupWindow(
                startsAt: Date(timeIntervalSince1970: 1_800_003_600), endsAt: Date(timeIntervalSince1970: 1_800_010_800))
            try await client.post(chair, owner: owner, title: "Chair", at: City.sanFrancisco)
            try await client.setDetails(
                of: chair, owner: owner, imageIds: [photo, second], pickupTimes: .init(note: "Evenings, ring twice", windows: [window]))
            try await client.post(lamp, owner: owner, title: "Lamp", at: City.oakland)
            let last = try await client.setDetails(of: lamp, owner: owner, imageIds: [], pickupTimes: .init())

            for uri in [
                "/v1/nearby/listings?\(Self.sf)&radius=50", "/v1/nearby/listings?\(Self.sf)&radius=50&sort=recent",
                "/v1/area/listings?swLat=37&swLon=-123&neLat=38.5&neLon=-121",
            ] {
                let found = Dictionary(
                    uniqueKeysWithValues: try await client.items(uri, after: last).map { (($0["id"] as? String ?? "").lowercased(), $0) })
                let image = try #require(found[chair.key]?["image"] as? [String: String], "\(uri)")
                #expect(image["small"] == "/v1/images/\(photo.key)?size=small")
                #expect(image["original"] == "/v1/images/\(photo.key)")
                let times = try #require(found[chair.key]?["pickupTimes"] as? [String: Any])
                #expect(times["note"] as? String == "Evenings, ring twice")
                #expect((times["windows"] as? [[String: String]])?.first?["startsAt"] == "2027-01-15T09:00:00Z")
                #expect(found[lamp.key]?["image"] == nil, "a listing without photos has no image")
                #expect((found[lamp.key]?["pickupTimes"] as? [String: Any])?["windows"] as? [Any] != nil)
            }
            let edited = try await client.setDetails(of: chair, owner: owner, imageIds: [second], pickupTimes: .init(note: "Mornings"))
            let chairNow = try #require(try await client.items("/v1/nearby/listings?\(Self.sf)&radius=1", after: edited).first)
            #expect((chairNow["image"] as? [String: String])?["id"]?.lowercased() == second.key)
            #expect((chairNow["pickupTimes"] as? [String: Any])?["note"] as? String == "Mornings")
        }
    }

    @Test("category, free and keyword filters; sort=recent")
    func filters() async throws {
        try await GeoSearchHarness().test { client in
            let (sofa, bike, lamp) = (UUID(), UUID(), UUID())
            try await client.post(
                sofa, title: "Blue sofa", description: "Comfy, a little worn", category: "Furniture", at: City.sanFrancisco,
                postedAt: Date(timeIntervalSince1970: 1_800_000_000))
            try await client.post(
                bike, title: "Kids' bicycle", description: "Red, with training wheels", category: "Sports",
                price: Money(amountMinor: 2_500, currency: "USD"), at: City.oakland,
                postedAt: Date(timeIntervalSince1970: 1_800_000_100))
            let last = try await client.post(
                lamp, title: "Desk lamp", description: "Works with a blue bulb", category: "furniture",
                price: Money(amountMinor: 500, currency: "USD"), at: City.oakland,
                postedAt: Date(timeIntervalSince1970: 1_800_000_200))
            let base = "/v1/nearby/listings?\(Self.sf)&radius=50"
            #expect(Set(try await client.items("\(base)&category=Furniture", after: last).ids) == [sofa.key, lamp.key])
            #expect(try await client.items("\(base)&free=true").ids == [sofa.key])
            #expect(Set(try await client.items("\(base)&free=false").ids) == [bike.key, lamp.key])
            #expect(Set(try await client.items("\(base)&q=blue").ids) == [sofa.key, lamp.key])
            #expect(try await client.items("\(base)&q=bicyc").ids == [bike.key]) // a prefix matches
            #expect(try await client.items("\(base)&q=blue%20sofa").ids == [sofa.key])
            #expect(try await client.items("\(base)&q=%22NEAR(%20*").ids.isEmpty) // FTS syntax is just words
            #expect(try await client.items("\(base)&sort=recent").ids == [lamp.key, bike.key, sofa.key])
            let priced = try await client.items("\(base)&q=bicycle")
            #expect((priced.first?["price"] as? [String: Any])?["amountMinor"] as? Int == 2_500)
            #expect(priced.first?["free"] as? Bool == false)
        }
    }

    @Test("withdrawn listings leave results, available again ones return; a deleted account's listings disappear", arguments: Backend.allCases)
    func leavingTheIndex(backend: Backend) async throws {
        try await GeoSearchHarness(backend: backend).test { client in
            let owner = UUID()
            let (mine, other, kept, sold) = (UUID(), UUID(), UUID(), UUID())
            try await client.post(mine, owner: owner, at: City.sanFrancisco)
            try await client.post(other, owner: owner, at: City.oakland)
            try await client.post(kept, at: City.oakland)
            var last = try await client.post(sold, at: City.sanFrancisco)
            let uri = "/v1/nearby/listings?\(Self.sf)&radius=50"
            #expect(Set(try await client.items(uri, after: last).ids) == [mine.key, other.key, kept.key, sold.key])

            last = try await client.append(ListingStatusChanged(listingId: sold, status: .withdrawn), to: "listing-\(sold.key)")
            #expect(Set(try await client.items(uri, after: last).ids) == [mine.key, other.key, kept.key])
            #expect(try await client.get("\(uri)&q=thing&count=true").json["count"] as? Int == 3)

            last = try await client.append(ListingStatusChanged(listingId: kept, status: .promised), to: "listing-\(kept.key)")
            #expect(Set(try await client.items(uri, after: last).ids) == [mine.key, other.key])
            #expect(try await client.items("\(uri)&status=promised").ids == [kept.key])

            last = try await client.append(AccountDeleted(accountId: owner, deletedAt: Date()), to: "account-\(owner.key)")
            #expect(try await client.items(uri, after: last).ids.isEmpty)
            #expect(try await client.items("/v1/area/listings?swLat=-90&swLon=-180&neLat=90&neLon=180&status=promised").ids == [kept.key])
            // Events for a deleted owner's listings that arrive later bring nothing back.
            last = try await client.append(
                ListingEdited(
                    listingId: mine, title: "Back?", description: "", category: "Furniture", price: nil,
                    publicLocation: City.sanFrancisco), to: "listing-\(mine.key)")
            last = try await client.post(owner: owner, at: City.sanFrancisco)
            #expect(try await client.items(uri, after: last).ids.isEmpty)

            last = try await client.append(ListingStatusChanged(listingId: sold, status: .available), to: "listing-\(sold.key)")
            #expect(try await client.items(uri, after: last).ids == [sold.key])
        }
    }

    @Test("a search that would read more listings than COMMONS_SEARCH_SCAN_LIMIT gets 422; a nearest-first page nearby does not")
    func scanLimit() async throws {
        try await GeoSearchHarness(settings: ["COMMONS_SEARCH_SCAN_LIMIT": "100"]).test { client in
            var last = ""
            for index in 0..<150 {
                last = try await client.post(at: Coordinate(lat: 37.70 + Double(index) * 0.001, lon: -122.42))
            }
            for uri in [
                "/v1/area/listings?swLat=-90&swLon=-180&neLat=90&neLon=180", "/v1/nearby/listings?\(Self.sf)&radius=20000&count=true",
                "/v1/nearby/listings?\(Self.sf)&radius=20000&sort=recent",
            ] {
                let refused = try await client.get(uri, after: last)
                #expect(refused.status == .unprocessableContent, "\(uri): \(refused.text)")
                #expect(refused.json["type"] as? String == "https://commons.example/problems/query-too-broad")
            }
            // Nearest first stops growing its circle once the page is full: far below the limit.
            #expect(try await client.items("/v1/nearby/listings?\(Self.sf)&radius=20000&limit=20", after: last).count == 20)
            #expect(try await client.get("/v1/nearby/listings?\(Self.sf)&radius=1&count=true", after: last).status == .ok)
        }
    }

    @Test("25 listings in pages of 10: each exactly once, in order; count=true", arguments: Backend.allCases)
    func paging(backend: Backend) async throws {
        try await GeoSearchHarness(backend: backend).test { client in
            var last = ""
            for index in 0..<25 {
                // Some share a point, some a time: ties are broken by id.
                let point = Coordinate(lat: 37.77 + Double(index / 3) * 0.001, lon: -122.42)
                last = try await client.post(at: point, postedAt: Date(timeIntervalSince1970: 1_800_000_000 + Double(index / 2)))
            }
            for sort in ["distance", "recent"] {
                var seen: [String] = []
                var cursor: String?
                var pages = 0
                repeat {
                    var uri = "/v1/nearby/listings?\(Self.sf)&radius=20&limit=10&sort=\(sort)"
                    if let cursor { uri += "&cursor=\(cursor)" }
                    let reply = try await client.get(uri, after: last)
                    #expect(reply.status == .ok)
                    let items = reply.json["items"] as? [[String: Any]] ?? []
                    seen += items.ids
                    cursor = reply.json["nextCursor"] as? String
                    pages += 1
                } while cursor != nil && pages < 10
                #expect(pages == 3)
                #expect(seen.count == 25 && Set(seen).count == 25)
                let all = try await client.items("/v1/nearby/listings?\(Self.sf)&radius=20&limit=100&sort=\(sort)")
                #expect(all.ids == seen)
            }
            let count = try await client.get("/v1/nearby/listings?\(Self.sf)&radius=20&count=true")
            #expect(count.json["count"] as? Int == 25)
            #expect(count.json["items"] == nil)
            #expect(try await client.get("/v1/nearby/listings?\(Self.sf)&radius=0.001&count=true").json["count"] as? Int == 0)
        }
    }

    @Test("an area box across the antimeridian; its edges are inside")
    func antimeridianArea() async throws {
        try await GeoSearchHarness().test { client in
            let (suva, apia, edge, outside) = (UUID(), UUID(), UUID(), UUID())
            try await client.post(suva, at: City.suva)
            try await client.post(apia, at: City.apia)
            try await client.post(edge, at: Coordinate(lat: -10, lon: -170)) // on the north-east corner
            var last = try await client.post(outside, at: City.honolulu)
            let uri = "/v1/area/listings?swLat=-25&swLon=170&neLat=-10&neLon=-170"
            #expect(Set(try await client.items(uri, after: last).ids) == [suva.key, apia.key, edge.key])
            #expect(try await client.get("\(uri)&count=true").json["count"] as? Int == 3)
            // The same box without crossing: nothing but the ocean between 170°W and 170°E.
            #expect(try await client.items("/v1/area/listings?swLat=-25&swLon=-170&neLat=-10&neLon=170").ids == [edge.key])
            // Nearby across the antimeridian: from Suva, Apia is about 1,150 km east.
            let fromSuva = try await client.items("/v1/nearby/listings?lat=-18.1416&lon=178.4419&radius=1500")
            #expect(fromSuva.ids == [suva.key, apia.key])
            let apiaMeters = try #require(fromSuva.last?["distanceMeters"] as? Double)
            #expect(abs(apiaMeters - City.suva.point.distanceMeters(to: City.apia.point)) < 1e-6)
            #expect(apiaMeters > 1_000_000 && apiaMeters < 1_300_000)
            last = try await client.append(ListingStatusChanged(listingId: suva, status: .given), to: "listing-\(suva.key)")
            #expect(Set(try await client.items(uri, after: last).ids) == [apia.key, edge.key])
        }
    }

    @Test("organisations by kind, tag and accepted category, nearby and in an area")
    func organizations() async throws {
        try await GeoSearchHarness().test { client in
            let (centre, charity, both, nowhere) = (UUID(), UUID(), UUID(), UUID())
            @discardableResult func register(
                _ id: UUID, _ name: String, _ kind: OrganizationKind, tags: [String], accepts: [String], at point: Coordinate?
            ) async throws -> String {
                try await client.append(
                    OrganizationRegistered(
                        organizationId: id, slug: name.lowercased(), name: name, kind: kind, tags: tags,
                        acceptedCategories: accepts, location: point, address: point == nil ? nil : "1 Main St"),
                    to: "organization-\(id.key)")
            }
            try await register(centre, "ReUse Depot", .centre, tags: ["reuse"], accepts: ["Furniture", "Books"], at: City.oakland)
            try await register(charity, "Food Bank", .charity, tags: ["food", "hunger"], accepts: [], at: City.sanFrancisco)
            try await register(both, "Goodwill", .both, tags: ["jobs"], accepts: ["Clothing"], at: City.sacramento)
            var last = try await register(nowhere, "Online Only", .charity, tags: ["food"], accepts: [], at: nil)
            let base = "/v1/nearby/organizations?\(Self.sf)&radius=200"
            let all = try await client.items(base, after: last)
            #expect(all.ids == [charity.key, centre.key, both.key])
            #expect(all.first?["name"] as? String == "Food Bank")
            #expect(all.first?["distanceMeters"] as? Double == 0)
            #expect(try await client.items("\(base)&kind=centre").ids == [centre.key, both.key])
            #expect(try await client.items("\(base)&kind=charity").ids == [charity.key, both.key])
            #expect(try await client.items("\(base)&acceptsCategory=furniture").ids == [centre.key])
            #expect(try await client.items("\(base)&tag=Food").ids == [charity.key])
            #expect(try await client.get("\(base)&count=true").json["count"] as? Int == 3)
            #expect(try await client.get("\(base)&kind=shop").status == .badRequest)

            last = try await client.append(
                OrganizationUpdated(
                    organizationId: centre, slug: "reuse", name: "ReUse Depot", kind: .centre,
                    tags: ["reuse"], acceptedCategories: ["Books"], location: City.honolulu,
                    address: nil), to: "organization-\(centre.key)")
            #expect(try await client.items("\(base)&acceptsCategory=Furniture", after: last).ids.isEmpty)
            let area = try await client.items("/v1/area/organizations?swLat=20&swLon=-160&neLat=22&neLon=-157")
            #expect(area.ids == [centre.key])
            #expect(area.first?["distanceMeters"] == nil)
            #expect(area.first?["directionsURL"] as? String == "https://maps.apple.com/?daddr=21.306900,-157.858300")
        }
    }

    @Test("bad queries get a 400 problem naming each field")
    func badRequests() async throws {
        try await GeoSearchHarness().test { client in
            let cases: [(String, [String])] = [
                ("/v1/nearby/listings?lat=91&lon=0", ["lat"]),
                ("/v1/nearby/listings?lat=10", ["lon"]),
                ("/v1/nearby/listings", ["lat", "lon"]),
                ("/v1/nearby/listings?lat=10&lon=181", ["lon"]),
                ("/v1/nearby/listings?lat=abc&lon=0", ["lat"]),
                ("/v1/nearby/listings?lat=10&lon=0&radius=-1", ["radius"]),
                ("/v1/nearby/listings?lat=10&lon=0&radius=30000&unit=km", ["radius"]),
                ("/v1/nearby/listings?lat=10&lon=0&radius=20001&unit=mi", ["radius"]),
                ("/v1/nearby/listings?lat=10&lon=0&unit=furlongs", ["unit"]),
                ("/v1/nearby/listings?lat=10&lon=0&cursor=notacursor", ["cursor"]),
                ("/v1/nearby/listings?lat=10&lon=0&limit=0", ["limit"]),
                ("/v1/nearby/listings?lat=10&lon=0&limit=101", ["limit"]),
                ("/v1/nearby/listings?lat=10&lon=0&free=maybe&sort=cheapest&status=withdrawn", ["free", "sort", "status"]),
                ("/v1/nearby/listings?lat=10&lon=0&q=%21%21", ["q"]),
                // Bound as text, "Furniture\0xyz" was "Furniture": every furniture listing.
                ("/v1/nearby/listings?lat=10&lon=0&category=Furniture%00xyz", ["category"]),
                ("/v1/nearby/organizations?lat=-91&lon=0&kind=shop", ["lat", "kind"]),
                ("/v1/area/listings?swLat=10&swLon=0&neLat=5&neLon=1", ["neLat"]),
                ("/v1/area/listings?swLat=10&swLon=0&neLat=20", ["neLon"]),
                ("/v1/area/organizations?swLat=10&swLon=-181&neLat=20&neLon=1", ["swLon"]),
            ]
            for (uri, fields) in cases {
                let reply = try await client.get(uri)
                #expect(reply.status == .badRequest, "\(uri)")
                #expect(reply.json["type"] as? String == "https://commons.example/problems/malformed-request", "\(uri)")
                let errors = reply.json["errors"] as? [String: Any] ?? [:]
                #expect(Set(errors.keys) == Set(fields), "\(uri): \(reply.text)")
            }
        }
    }

    @Test("a cursor only works for its own query and order")
    func cursorsAreBound() async throws {
        try await GeoSearchHarness().test { client in
            var last = ""
            for index in 0..<3 { last = try await client.post(at: Coordinate(lat: 37.77 + Double(index) * 0.001, lon: -122.42)) }
            let first = try await client.get("/v1/nearby/listings?\(Self.sf)&radius=20&limit=1", after: last)
            let cursor = try #require(first.json["nextCursor"] as? String)
            #expect(try await client.get("/v1/nearby/listings?\(Self.sf)&radius=20&limit=1&cursor=\(cursor)").status == .ok)
            #expect(try await client.get("/v1/nearby/listings?\(Self.sf)&radius=21&limit=1&cursor=\(cursor)").status == .badRequest)
            #expect(try await client.get("/v1/nearby/listings?\(Self.sf)&radius=20&sort=recent&cursor=\(cursor)").status == .badRequest)
            let last3 = try await client.get("/v1/nearby/listings?\(Self.sf)&radius=20&limit=3")
            #expect(last3.json["nextCursor"] is NSNull)
        }
    }

    @Test("every route is in the OpenAPI document")
    func openAPI() async throws {
        try await GeoSearchHarness().test { client in
            #expect(Set(client.routes) == (try GeoSearchService.definition()).openAPI.documentedRoutes)
            let reply = try await client.get("/openapi.json")
            #expect(reply.status == .ok)
            let paths = reply.json["paths"] as? [String: Any] ?? [:]
            for path in ["/v1/nearby/listings", "/v1/nearby/organizations", "/v1/area/listings", "/v1/area/organizations"] {
                #expect(paths[path] != nil, "\(path)")
            }
        }
    }

    @Test("issue 21: no q makes nearby search a 500; a prepend letter glued to a quote is an ordinary search, 100 KB a 400")
    func hostileSearches() async throws {
        try await GeoSearchHarness().test { client in
            let last = try await client.post(UUID(), title: "Milk jug", at: City.sanFrancisco)
            let base = "/v1/nearby/listings?\(Self.sf)"
            #expect(try await client.get("\(base)&q=%E0%B5%8E%22", after: last).status == .ok)
            #expect(
                (try await client.get("\(base)&q=\(String(repeating: "a", count: 100_000))").json["errors"] as? [String: [String]])?["q"] == [
                    "must be at most 200 characters"
                ])
            for q in [
                "%22", "%22%22", "mil%00k", "%E2%80%8F%22mil%E2%80%8E", "%CC%81%22", "%F0%9F%91%A9%E2%80%8D%F0%9F%91%A7%22", "NEAR(%22",
                "a%20OR%20NOT%20%5E:*",
            ] {
                let reply = try await client.get("\(base)&q=\(q)")
                #expect(
                    reply.status == .ok || (reply.status == .badRequest && (reply.json["errors"] as? [String: Any])?["q"] != nil),
                    "\(q): \(reply.text)")
            }
        }
    }
}
