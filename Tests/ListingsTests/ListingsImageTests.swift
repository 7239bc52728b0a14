import Contracts
import EventLog
import EventLogTestSupport
import Foundation
import ListingsService
import ServiceKit
import Testing

@Suite("images")
struct ListingsImageTests {
    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// A JPEG whose Exif block says where it was taken.
    static let jpegWithGPS: [UInt8] = [0xFF, 0xD8]
        + segment(0xE0, Array("JFIF\0".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0])
        + segment(0xE1, Array("Exif\0\0".utf8) + Array("MM\0*GPSLatitude 52.3745187".utf8))
        + segment(0xDB, [0] + Array(repeating: 2, count: 64))
        + segment(0xDA, [1, 1, 0, 0, 63, 0]) + [0x10, 0x20, 0x30] + [0xFF, 0xD9]
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0, 2, 0, 0, 0, 2, 8, 2, 0, 0, 0]

    @Test("upload strips GPS from a JPEG, stores by content, serves with long caching and an ETag", arguments: Backend.allCases)
    func uploadAndServe(backend: Backend) async throws {
        try await ListingsHarness(backend: backend).test { client in
            let owner = try await client.person()
            let uploaded = try await client.call(.post, "/v1/images", as: owner, bytes: Self.jpegWithGPS, headers: [.contentType: "image/png"])
            #expect(uploaded.status == .created)
            #expect(uploaded.json["contentType"] as? String == "image/jpeg")
            let id = try #require(uploaded.json["id"] as? String).lowercased()
            #expect(uploaded.headers[.location] == "/v1/images/\(id)")

            let served = try await client.get("/v1/images/\(id)", after: uploaded.position)
            #expect(served.status == .ok)
            #expect(served.headers[.contentType] == "image/jpeg")
            #expect(served.headers[.cacheControl] == "public, max-age=31536000, immutable")
            let bytes = [UInt8](served.body)
            #expect(bytes.starts(with: [0xFF, 0xD8]) && bytes.count < Self.jpegWithGPS.count)
            #expect(!String(decoding: bytes, as: UTF8.self).contains("GPS"))
            let etag = try #require(served.headers[.eTag])
            #expect((try await client.call(.get, "/v1/images/\(id)", headers: [.ifNoneMatch: etag])).status == .notModified)

            let again = try await client.call(.post, "/v1/images", as: owner, bytes: Self.jpegWithGPS)
            #expect((again.json["id"] as? String)?.lowercased() == id)

            let listing = try await client.post(["imageIds": [id]], as: owner)
            #expect((listing.reply.json["imageIds"] as? [String])?.map { $0.lowercased() } == [id])
            #expect((try await client.get("/v1/images/\(UUID())", after: nil)).status == .notFound)
        }
    }

    @Test("anything but JPEG, PNG, WebP or HEIC is 415; over 10 MB is 413; multipart works; upload needs a token")
    func refusals() async throws {
        try await ListingsHarness().test { client in
            let owner = try await client.person()
            let gif = Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0]
            #expect((try await client.call(.post, "/v1/images", as: owner, bytes: gif, headers: [.contentType: "image/jpeg"])).status == .unsupportedMediaType)
            #expect((try await client.call(.post, "/v1/images", as: owner, bytes: Array(Self.jpegWithGPS.prefix(20)))).status == .unsupportedMediaType)
            let huge = Self.png + [UInt8](repeating: 0, count: 10 * 1024 * 1024)
            #expect((try await client.call(.post, "/v1/images", as: owner, bytes: huge)).status == .contentTooLarge)
            #expect((try await client.call(.post, "/v1/images", bytes: Self.png)).status == .unauthorized)

            let boundary = "commons-test-boundary"
            let body = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"p.png\"\r\nContent-Type: image/png\r\n\r\n".utf8)
                + Self.png + Array("\r\n--\(boundary)--\r\n".utf8)
            let multipart = try await client.call(.post, "/v1/images", as: owner, bytes: body,
                                                  headers: [.contentType: "multipart/form-data; boundary=\(boundary)"])
            #expect(multipart.status == .created)
            #expect(multipart.json["contentType"] as? String == "image/png")
            #expect(multipart.json["byteCount"] as? Int == Self.png.count)
        }
    }
}
