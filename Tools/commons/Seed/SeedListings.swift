import AsyncHTTPClient
import CommonsAPI
import Foundation
import NIOCore

/// The demo listings of `Data/listings.json`: things to give away or sell around central
/// Amsterdam, posted by the demo accounts with photos drawn from `Data/pictures/`, then
/// requested, answered, promised and commented on (see ``seedListingTalk``). Skipped when
/// the first demo account has listings already.
func seedListings(_ api: SeedClient, _ state: inout SeedState, _ report: (String) -> Void) async throws {
    guard
        let (file, url) = try state.demoFile(
            DemoListingFile.self, "listings.json", overriddenBy: "COMMONS_LISTINGS_FILE", step: "listings",
            report: report)
    else { return }
    let first = try await state.accessToken(of: DemoAccounts.people[0].email, api: api)
    let existing = try await api.get("/v1/listings?author=me&limit=1", token: first)
    if existing.status == 200, let ids = try? existing.itemIds(), !ids.isEmpty {
        report("listings: demo listings exist already")
        return
    }
    let pictures = url.deletingLastPathComponent().appendingPathComponent("pictures")
    let forSale = file.listings.filter { $0.priceMinor != nil }.count
    report(
        "listings: \(file.listings.count) demo listings around Amsterdam (\(forSale) for sale, \(file.listings.count - forSale) free) from \(url.path)"
    )
    var tokens: [String: String] = [:]
    for email in Set(file.listings.map(\.owner)) { tokens[email] = try await state.accessToken(of: email, api: api) }
    let owners = tokens
    let now = Date()
    // A few at a time: rendering, uploading and cleaning photos is most of the seed's time.
    let ids = try await withThrowingTaskGroup(of: (Int, String).self) { group in
        var ids: [Int: String] = [:]
        for (index, demo) in file.listings.enumerated() {
            if index >= 4, let (done, id) = try await group.next() { ids[done] = id }
            group.addTask {
                (index, try await postListing(demo, seed: index, api: api, token: owners[demo.owner] ?? "", pictures: pictures, now: now))
            }
        }
        for try await (done, id) in group { ids[done] = id }
        return ids
    }
    var posted: [(id: String, listing: DemoListingFile.Listing)] = []
    for (index, demo) in file.listings.enumerated() {
        guard let id = ids[index] else { continue }
        posted.append((id, demo))
        let price = demo.priceMinor.map { String(format: "€%.2f", Double($0) / 100) } ?? "free"
        report("  \(demo.title)  \(price)  \(demo.photos) photo\(demo.photos == 1 ? "" : "s")")
    }
    try await seedListingTalk(api, &state, posted: posted, report)
}

/// Posts one demo listing as its owner (the holder of `token`), with its photos; returns its id.
private func postListing(_ demo: DemoListingFile.Listing, seed: Int, api: SeedClient, token: String, pictures: URL, now: Date) async throws -> String
{
    let drawing: String
    do {
        drawing = try String(contentsOf: pictures.appendingPathComponent("\(demo.picture).svg"), encoding: .utf8)
    } catch {
        throw CommandFailure("listings: the drawing \(demo.picture).svg of \(demo.title) is not in \(pictures.path)")
    }
    var imageIds: [UUID] = []
    for variant in 0..<demo.photos {
        let photo = try DemoPicture.jpeg(drawing: drawing, variant: variant, colours: demo.colours ?? [:], seed: seed)
        let upload = try await api.upload(photo, token: token)
        guard upload.status == 201 else { throw CommandFailure("listings: uploading a photo answered \(upload.status): \(upload.detail)") }
        imageIds.append(try upload.decode(UploadedImage.self).id)
    }
    let amsterdam = TimeZone(identifier: "Europe/Amsterdam") ?? .current
    let windows = demo.pickup.windows.compactMap { $0.dates(after: now, in: amsterdam) }.map {
        PickupWindow(startsAt: $0.startsAt, endsAt: $0.endsAt)
    }
    let body = NewListing(
        title: demo.title, description: demo.description, category: ListingCategory(rawValue: demo.category),
        condition: ItemCondition(rawValue: demo.condition), price: demo.priceMinor.map { Money(amountMinor: $0, currency: .eur) },
        pickupTimes: PickupTimes(note: demo.pickup.note, windows: windows), pickupLocation: demo.place, streetAddress: demo.spot,
        imageIds: imageIds)
    let answer = try await api.post("/v1/listings", body, token: token)
    guard answer.status == 201 else { throw CommandFailure("listings: posting \(demo.title) answered \(answer.status): \(answer.detail)") }
    return try answer.id()
}

extension SeedClient {
    /// `POST /v1/images` with the picture as the raw body. While the service is busy with
    /// other photos (429 or 503) it tries again after the `Retry-After` it was given, as an
    /// app would.
    func upload(_ bytes: [UInt8], token: String) async throws -> Answer {
        var attempts = 0
        while true {
            let answer = try await uploadOnce(bytes, token: token)
            attempts += 1
            guard answer.status == 429 || answer.status == 503, attempts < 60 else { return answer }
            try await Task.sleep(for: .seconds(min(max(answer.retryAfter ?? 1, 1), 10)))
        }
    }

    private func uploadOnce(_ bytes: [UInt8], token: String) async throws -> Answer {
        var request = HTTPClientRequest(url: gateway + "/v1/images")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "image/jpeg")
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.body = .bytes(ByteBuffer(bytes: bytes))
        do {
            let response = try await client.execute(request, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 1 << 20)
            return Answer(
                status: Int(response.status.code), body: Data(body.readableBytesView),
                retryAfter: response.headers.first(name: "Retry-After").flatMap { Int($0) })
        } catch {
            throw CommandFailure("cannot reach \(gateway) (is `commons up` running?): \(error)")
        }
    }
}
