import CommonsClient
import Foundation
import PhotoTestSupport
import Testing
import TopologyKit

extension EndToEndTests {
    @Test("a phone photo with its position uploads through the gateway with the SDK's Idempotency-Key; every size comes back without it")
    func phonePhoto() async throws {
        let topology = try Topology.running()
        try topology.require(.accounts, .listings)
        let (ada, _, _) = try await E2E.person(topology, "Ada")
        let marker = E2E.marker("Porch")
        let photo = Data(try await PhotoTools.jpegWithPosition(width: 2400, height: 1800, noise: 30, marker: marker))
        #expect(photo.count > 420_000, "larger than the photo the SDK once could not upload")

        let uploaded = try await ada.listings.uploadImage(photo, contentType: "image/jpeg")
        #expect(uploaded.contentType == "image/jpeg")
        #expect(uploaded.width == 2400 && uploaded.height == 1800)
        #expect(uploaded.links.path(.small) == "/v1/images/\(uploaded.id.uuidString.lowercased())?size=small")
        let again = try await ada.listings.uploadImage(photo, contentType: "image/jpeg")
        #expect(again.id == uploaded.id, "the same picture is one image")

        let directory = try PhotoTools.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        var sizes: [ImageSize: Int] = [:]
        for size in ImageSize.allCases {
            let bytes = try await ada.listings.image(uploaded.id, size: size)
            sizes[size] = bytes.count
            let file = directory.appendingPathComponent("\(size.rawValue).jpg")
            try bytes.write(to: file)
            let tags = try await PhotoTools.tags(of: file.path)
            #expect(!tags.contains("GPS") && !tags.contains(marker), "\(size):\n\(tags)")
        }
        #expect(sizes[.small]! < sizes[.medium]! && sizes[.medium]! < sizes[.original]!)
    }
}
