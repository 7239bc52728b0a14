import AsyncHTTPClient
import Foundation
import PhotoCodec
import NIOCore

/// A dozen things to give away or sell around Amsterdam, posted by the demo accounts, some
/// with a small generated picture. Skipped when the first demo account has listings already.
func seedListings(_ api: SeedClient, _ state: inout SeedState, _ report: (String) -> Void) async throws {
    let people = DemoAccounts.people.map(\.email)
    var tokens: [String] = []
    for email in people { tokens.append(try await state.accessToken(of: email, api: api)) }
    let existing = try await api.get("/v1/listings?author=me&limit=1", token: tokens[0])
    if existing.status == 200, let page = try? existing.decode(SeedFeedPage.self), !page.items.isEmpty {
        report("listings: demo listings exist already")
        return
    }
    report("listings: \(DemoListings.all.count) demo listings around Amsterdam")
    for (index, demo) in DemoListings.all.enumerated() {
        let token = tokens[index % tokens.count]
        var imageIds: [String] = []
        if let colour = demo.colour {
            // Made by libvips, so the seed needs no files.
            guard let picture = SamplePhoto.make(width: 640, height: 480, format: .jpeg, noise: 6, colour: colour) else {
                throw CommandFailure("libvips could not make a demo picture")
            }
            let upload = try await api.upload(picture, token: token)
            guard upload.status == 201 else { throw CommandFailure("listings: uploading a picture answered \(upload.status): \(upload.detail)") }
            imageIds.append(try upload.decode(SeedImage.self).id)
        }
        let body = SeedListing(title: demo.title, description: demo.description, category: demo.category, condition: demo.condition,
                               price: demo.priceCents.map { SeedMoney(amountMinor: $0, currency: "EUR") },
                               pickupTimes: SeedPickupTimes(note: "Weekday evenings after 18:00"),
                               pickupLocation: SeedPoint(lat: demo.lat, lon: demo.lon), imageIds: imageIds)
        let answer = try await api.post("/v1/listings", body, token: token)
        guard answer.status == 201 else { throw CommandFailure("listings: posting \(demo.title) answered \(answer.status): \(answer.detail)") }
        report("  \(demo.title)\(demo.priceCents.map { String(format: "  €%.2f", Double($0) / 100) } ?? "  free")")
    }
}

/// The demo listings: what, and where (public places in Amsterdam, never someone's home).
enum DemoListings {
    struct Demo {
        var title: String
        var description: String
        var category: String
        var condition: String
        var priceCents: Int?
        var lat: Double
        var lon: Double
        var colour: (UInt8, UInt8, UInt8)?
    }

    static let all: [Demo] = [
        Demo(title: "Oak dining chair", description: "Solid oak, a few scratches.", category: "Furniture", condition: "good",
             lat: 52.3731, lon: 4.8922, colour: (150, 100, 50)),
        Demo(title: "Kids' bicycle, 16 inch", description: "Red, with training wheels.", category: "Sports", condition: "fair", priceCents: 2_500,
             lat: 52.3584, lon: 4.8811, colour: (200, 30, 30)),
        Demo(title: "Box of picture books", description: "About twenty, Dutch and English.", category: "Books", condition: "good",
             lat: 52.3667, lon: 4.9041),
        Demo(title: "Winter coat, size M", description: "Warm and waterproof.", category: "Clothes", condition: "likeNew", priceCents: 3_000,
             lat: 52.3780, lon: 4.9003, colour: (30, 60, 150)),
        Demo(title: "Kettle", description: "Works fine, we got a new one.", category: "Household", condition: "good",
             lat: 52.3600, lon: 4.8852),
        Demo(title: "Wooden train set", description: "Complete, with bridge.", category: "Toys", condition: "good", priceCents: 1_500,
             lat: 52.3547, lon: 4.9090, colour: (220, 180, 60)),
        Demo(title: "Jar of homemade jam", description: "Strawberry, made this week.", category: "Food", condition: "new",
             lat: 52.3702, lon: 4.8952),
        Demo(title: "Desk lamp", description: "Adjustable arm, warm light.", category: "Electronics", condition: "good", priceCents: 800,
             lat: 52.3791, lon: 4.8832),
        Demo(title: "Bookcase", description: "White, 180 cm high; bring a van.", category: "Furniture", condition: "fair",
             lat: 52.3513, lon: 4.8920, colour: (240, 240, 240)),
        Demo(title: "Yoga mat", description: "Purple, barely used.", category: "Sports", condition: "likeNew",
             lat: 52.3620, lon: 4.9200),
        Demo(title: "Old radio", description: "For parts or repair.", category: "Electronics", condition: "forParts", priceCents: 500,
             lat: 52.3845, lon: 4.8790),
        Demo(title: "Plant pots", description: "Six terracotta pots.", category: "Other", condition: "good",
             lat: 52.3680, lon: 4.8650, colour: (190, 90, 40)),
    ]
}

extension SeedClient {
    /// `POST /v1/images` with the picture as the raw body.
    func upload(_ bytes: [UInt8], token: String) async throws -> Answer {
        var request = HTTPClientRequest(url: gateway + "/v1/images")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "image/jpeg")
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.body = .bytes(ByteBuffer(bytes: bytes))
        do {
            let response = try await client.execute(request, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 1 << 20)
            return Answer(status: Int(response.status.code), body: Data(body.readableBytesView))
        } catch {
            throw CommandFailure("cannot reach \(gateway) (is `commons up` running?): \(error)")
        }
    }
}

private struct SeedFeedPage: Decodable { var items: [SeedImage] }
private struct SeedImage: Decodable { var id: String }
private struct SeedMoney: Encodable { var amountMinor: Int; var currency: String }
private struct SeedPickupTimes: Encodable { var note: String }
private struct SeedPoint: Encodable { var lat: Double; var lon: Double }
private struct SeedListing: Encodable {
    var title: String
    var description: String
    var category: String
    var condition: String
    var price: SeedMoney?
    var pickupTimes: SeedPickupTimes
    var pickupLocation: SeedPoint
    var imageIds: [String]
}
