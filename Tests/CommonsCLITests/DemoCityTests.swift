import CPhotoCodec
import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The demo data of `commons seed` (issue 18, "the demo city must hang together"): one city,
/// Amsterdam, where every listing, donation centre and store is near the centre of
/// `Data/city.json`, with pictures that the project draws and serves itself.
@Suite("the demo city")
struct DemoCityTests {
    @Test("every store, donation centre and listing is within the demo city's radius of its centre")
    func oneCity() throws {
        let city = try DemoData.city()
        #expect(city.name == "Amsterdam")
        var places: [(what: String, lat: Double, lon: Double)] = []
        let catalog = try DemoData.json("catalog.json")
        for store in catalog["stores"] as? [[String: Any]] ?? [] {
            places.append(("store \(store["name"] ?? "")", store["lat"] as? Double ?? 0, store["lon"] as? Double ?? 0))
            #expect((store["address"] as? String)?.hasSuffix(", Amsterdam") == true, "\(store)")
        }
        let organizations = try DemoData.json("organizations.json")
        let centres = (organizations["organizations"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String != "charity" }
        for centre in centres {
            let location = centre["location"] as? [String: Double] ?? [:]
            places.append(("centre \(centre["slug"] ?? "")", location["lat"] ?? 0, location["lon"] ?? 0))
        }
        for listing in try DemoData.listings() {
            places.append(("listing \(listing["title"] ?? "")", listing.place.lat, listing.place.lon))
        }
        #expect(places.count >= 24 + 6 + 30)
        for place in places {
            let kilometres = DemoData.kilometres(from: city.centre, to: (place.lat, place.lon))
            #expect(kilometres <= city.radiusKm, "\(place.what) is \(kilometres) km from the \(city.centreName)")
        }
        let about = organizations["about"] as? String ?? ""
        #expect(about.contains("Amsterdam") && !about.contains("San Francisco"), "\(about)")
    }

    @Test("donation centres have an address, opening hours and accepted categories; the charities are real, with a homepage")
    func centresAndCharities() throws {
        let organizations = try DemoData.json("organizations.json")["organizations"] as? [[String: Any]] ?? []
        let centres = organizations.filter { $0["kind"] as? String != "charity" }
        #expect((6...10).contains(centres.count), "\(centres.count) centres")
        for centre in centres {
            #expect((centre["address"] as? String)?.contains("Amsterdam") == true, "\(centre["slug"] ?? "")")
            #expect((centre["openingHours"] as? [Any])?.isEmpty == false, "\(centre["slug"] ?? "")")
            let accepted = centre["acceptedCategories"] as? [String] ?? []
            #expect(!accepted.isEmpty && accepted.allSatisfy(DemoData.categories.contains), "\(centre["slug"] ?? ""): \(accepted)")
            #expect(centre["fictional"] as? Bool == true && (centre["name"] as? String)?.hasSuffix("(fictional)") == true)
        }
        let charities = organizations.filter { $0["kind"] as? String == "charity" }
        #expect(charities.count >= 5)
        for charity in charities {
            #expect((charity["homepage"] as? String)?.hasPrefix("https://") == true, "\(charity["slug"] ?? "")")
            #expect(charity["fictional"] == nil)
        }
    }

    @Test("the demo listings cover every category, free and for sale, with pickup times, photos, requests and comments")
    func listings() throws {
        let listings = try DemoData.listings()
        #expect((30...40).contains(listings.count), "\(listings.count) listings")
        #expect(Set(listings.compactMap { $0["category"] as? String }) == DemoData.categories)
        let priced = listings.filter { $0["priceMinor"] is Int }
        #expect(priced.count >= 8 && listings.count - priced.count >= 8, "\(priced.count) for sale of \(listings.count)")
        #expect(listings.filter { ($0["photos"] as? Int ?? 0) >= 2 }.count >= 8)
        let pictures = DemoData.root.appendingPathComponent("Data/pictures")
        for listing in listings {
            let title = listing["title"] as? String ?? ""
            #expect((listing["description"] as? String)?.isEmpty == false, "\(title)")
            #expect((1...8).contains(listing["photos"] as? Int ?? 0), "\(title)")
            let picture = pictures.appendingPathComponent("\(listing["picture"] as? String ?? "").svg")
            #expect(FileManager.default.fileExists(atPath: picture.path), "\(title): \(picture.path)")
            let pickup = listing["pickup"] as? [String: Any] ?? [:]
            #expect((pickup["note"] as? String)?.isEmpty == false && (pickup["windows"] as? [Any])?.isEmpty == false, "\(title)")
            let owner = listing["owner"] as? String ?? ""
            #expect(DemoData.accounts.contains(owner), "\(title): \(owner)")
            let requesters = (listing["requests"] as? [[String: Any]] ?? []).compactMap { $0["from"] as? String }
            let commenters = (listing["comments"] as? [[String: Any]] ?? []).compactMap { $0["from"] as? String }
            #expect(requesters.allSatisfy { DemoData.accounts.contains($0) && $0 != owner }, "\(title): no one requests their own item")
            #expect(commenters.allSatisfy(DemoData.accounts.contains), "\(title)")
            if let promised = listing["promisedTo"] as? String { #expect(requesters.contains(promised), "\(title)") }
        }
        #expect(listings.compactMap { $0["requests"] as? [Any] }.joined().count >= 4)
        #expect(listings.compactMap { $0["comments"] as? [Any] }.joined().count >= 8)
        #expect(Set(listings.compactMap { $0["owner"] as? String }) == DemoData.accounts, "every demo account has things of their own")
    }

    @Test("product images are same-origin paths of drawings in deploy/web/img/products, each a valid SVG that renders")
    func productImages() throws {
        let products = try DemoData.json("catalog.json")["products"] as? [[String: Any]] ?? []
        let images = Set(products.compactMap { $0["image"] as? String })
        #expect(products.allSatisfy { $0["image"] is String })
        let folder = DemoData.root.appendingPathComponent("deploy/web/img/products")
        for image in images.sorted() {
            #expect(image.hasPrefix("/img/products/") && image.hasSuffix(".svg"), "\(image)")
            let file = folder.appendingPathComponent(String(image.dropFirst("/img/products/".count)))
            #expect(FileManager.default.fileExists(atPath: file.path), "\(image) is not in deploy/web/img/products")
        }
        let drawings = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".svg") }
        #expect(drawings.count == images.count, "one drawing per product name")
        for drawing in drawings.sorted() {
            let data = try Data(contentsOf: folder.appendingPathComponent(drawing))
            #expect(data.count < 4_096, "\(drawing) is small")
            #expect(DemoData.isWellFormedXML(data), "\(drawing)")
            #expect(DemoData.renders(data), "\(drawing) renders with libvips")
        }
    }

    @Test("the listings' drawings are valid SVG that libvips renders")
    func listingDrawings() throws {
        let folder = DemoData.root.appendingPathComponent("Data/pictures")
        let drawings = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".svg") }
        #expect(drawings.count >= 20)
        for drawing in drawings.sorted() {
            let data = try Data(contentsOf: folder.appendingPathComponent(drawing))
            #expect(DemoData.isWellFormedXML(data), "\(drawing)")
            #expect(DemoData.renders(data), "\(drawing) renders with libvips")
        }
    }

    @Test("from the demo centre, most products are offered within 5 km (where the API marks the cheapest nearby)")
    func storesNearby() throws {
        let city = try DemoData.city()
        let catalog = try DemoData.json("catalog.json")
        var near = Set<String>()
        for store in catalog["stores"] as? [[String: Any]] ?? [] {
            let kilometres = DemoData.kilometres(from: city.centre, to: (store["lat"] as? Double ?? 0, store["lon"] as? Double ?? 0))
            if kilometres <= 5, let id = store["id"] as? String { near.insert(id) }
        }
        #expect(near.count >= 12)
        let products = catalog["products"] as? [[String: Any]] ?? []
        let offeredNearby = products.filter { product in
            (product["offers"] as? [[String: Any]] ?? []).filter { near.contains($0["storeId"] as? String ?? "") }.count >= 2
        }
        #expect(Double(offeredNearby.count) >= 0.9 * Double(products.count), "\(offeredNearby.count) of \(products.count)")
    }

    @Test("demo donations go to organisations of the file in their currency, and each wallet is topped up enough")
    func donations() throws {
        let file = try DemoData.json("donations.json")
        let organizations = try DemoData.json("organizations.json")["organizations"] as? [[String: Any]] ?? []
        let currencies = Dictionary(uniqueKeysWithValues: organizations.map { ($0["slug"] as? String ?? "", $0["currency"] as? String ?? "") })
        var balance: [String: Int] = [:]
        for topUp in file["topUps"] as? [[String: Any]] ?? [] {
            balance["\(topUp["who"] ?? "") \(topUp["currency"] ?? "")", default: 0] += topUp["amountMinor"] as? Int ?? 0
        }
        let donations = file["donations"] as? [[String: Any]] ?? []
        #expect(Set(donations.compactMap { $0["who"] as? String }) == DemoData.accounts)
        for donation in donations {
            let slug = donation["organization"] as? String ?? ""
            #expect(currencies[slug] == donation["currency"] as? String, "\(slug)")
            balance["\(donation["who"] ?? "") \(donation["currency"] ?? "")", default: 0] -= donation["amountMinor"] as? Int ?? 0
        }
        #expect(balance.values.allSatisfy { $0 >= 0 }, "\(balance)")
        #expect(donations.filter { $0["share"] is String }.count >= 2)
        #expect(Set(donations.compactMap { $0["organization"] as? String }).count >= 4)
    }

    @Test("the demo shopping lists belong to demo accounts and at least two are shared")
    func lists() throws {
        let lists = try DemoData.json("lists.json")["lists"] as? [[String: Any]] ?? []
        #expect(lists.allSatisfy { DemoData.accounts.contains($0["owner"] as? String ?? "") })
        #expect(lists.filter { ($0["sharedWith"] as? [String])?.isEmpty == false }.count >= 2)
        let names = Set(
            (try DemoData.json("catalog.json")["products"] as? [[String: Any]] ?? []).compactMap { ($0["name"] as? String)?.lowercased() })
        for item in lists.flatMap({ $0["items"] as? [[String: Any]] ?? [] }) {
            if let product = item["product"] as? String { #expect(names.contains(product), "\(product) is a product of the catalogue") }
        }
    }
}

/// Reading the demo data files as plain JSON, the way a reviewer would.
enum DemoData {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let accounts: Set = ["ada@commons.local", "grace@commons.local", "alan@commons.local"]
    /// The listings service's categories.
    static let categories: Set = ["Clothes", "Electronics", "Food", "Furniture", "Sports", "Toys", "Books", "Household", "Other"]

    static func json(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: root.appendingPathComponent("Data/\(name)"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "Data/\(name) is a JSON object")
    }

    struct City {
        var name: String
        var centreName: String
        var centre: (lat: Double, lon: Double)
        var radiusKm: Double
    }

    static func city() throws -> City {
        let city = try json("city.json")
        let centre = try #require(city["centre"] as? [String: Double])
        return City(
            name: city["name"] as? String ?? "", centreName: city["centreName"] as? String ?? "", centre: (centre["lat"] ?? 0, centre["lon"] ?? 0),
            radiusKm: city["radiusKm"] as? Double ?? 0)
    }

    static func listings() throws -> [[String: Any]] {
        try json("listings.json")["listings"] as? [[String: Any]] ?? []
    }

    /// Great-circle distance.
    static func kilometres(from a: (lat: Double, lon: Double), to b: (lat: Double, lon: Double)) -> Double {
        let (p1, p2) = (a.lat * .pi / 180, b.lat * .pi / 180)
        let (dp, dl) = (p2 - p1, (b.lon - a.lon) * .pi / 180)
        let h = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        return 2 * 6_371 * asin(min(1, h.squareRoot()))
    }

    static func isWellFormedXML(_ data: Data) -> Bool {
        XMLParser(data: data).parse()
    }

    /// Whether libvips (through librsvg) renders it to a JPEG, as the seed does.
    static func renders(_ data: Data) -> Bool {
        var output = photo_codec_output()
        let status = data.withUnsafeBytes { photo_codec_encode($0.baseAddress, $0.count, ".jpg", 80, nil, 0, 10_000_000, nil, &output) }
        defer { photo_codec_free(output.data) }
        return status == PHOTO_CODEC_OK && output.width > 0
    }
}

extension [String: Any] {
    /// A listing's `place`.
    fileprivate var place: (lat: Double, lon: Double) {
        let place = self["place"] as? [String: Double] ?? [:]
        return (place["lat"] ?? 0, place["lon"] ?? 0)
    }
}
