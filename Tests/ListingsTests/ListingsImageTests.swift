import Contracts
import Crypto
import EventLog
import EventLogTestSupport
import Foundation
import ListingsService
import PhotoCodec
import PhotoTestSupport
import ServiceKit
import Testing

@Suite("images")
struct ListingsImageTests {
    @Test("a blob is read a piece at a time: every piece in order, its header without its bytes, nothing past its end", arguments: Backend.allCases)
    func blobInPieces(backend: Backend) async throws {
        try await ListingsHarness(backend: backend).test { client in
            let store = client.runtime.blobStore
            var generator = SystemRandomNumberGenerator()
            let bytes = (0..<(1 << 20) + 17).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let address = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
            try await store.put(bytes, at: address, contentType: "image/jpeg", owner: UUID())
            #expect(try await store.header(of: address) == BlobHeader(contentType: "image/jpeg", byteCount: bytes.count))
            var pieces: [[UInt8]] = []
            for try await piece in store.chunks(of: address, size: 100_000) { pieces.append(piece) }
            #expect(pieces.count == 11 && pieces.dropLast().allSatisfy { $0.count == 100_000 })
            #expect(pieces.flatMap { $0 } == bytes)
            #expect(try await store.read(address, from: bytes.count - 5, count: 100) == Array(bytes.suffix(5)))
            #expect(try await store.read(address, from: bytes.count, count: 100).isEmpty)
            let missing = String(repeating: "0", count: 64)
            #expect(try await store.header(of: missing) == nil)
            #expect(try await store.read(missing, from: 0, count: 100).isEmpty)

            // Served over HTTP in several pieces (256 KiB each), whole and with its length.
            let id = UUID()
            let stored = ImageStored(
                imageId: id, sha256: address, contentType: "image/jpeg", byteCount: bytes.count, uploaderId: UUID(), storedAt: Date(),
                width: 2_000, height: 1_500, sizes: [])
            let position = try await client.runtime.store.append(
                to: "image-\(id.uuidString.lowercased())", expected: .any, events: [try EventCatalog.encode(stored)]
            ).checkpoint.description
            let served = try await client.get("/v1/images/\(id)", after: position)
            #expect(served.status == .ok)
            #expect(served.headers[.contentLength] == String(bytes.count))
            #expect(Array(served.body) == bytes)
        }
    }

    /// The pixels of a served picture, read back by libvips.
    static func dimensions(_ bytes: Data) throws -> (width: Int, height: Int) {
        let photo = try PhotoCleaner.clean([UInt8](bytes)).original
        return (photo.width, photo.height)
    }

    @Test(
        "an upload is cleaned of its position, stored by content, and served in every size with private caching and an ETag",
        arguments: Backend.allCases)
    func uploadAndServe(backend: Backend) async throws {
        let marker = "Sofa\(UUID().uuidString.prefix(6))"
        let photo = try await PhotoTools.jpegWithPosition(width: 1600, height: 1200, marker: marker)
        try await ListingsHarness(backend: backend).test { client in
            let owner = try await client.person()
            let uploaded = try await client.call(.post, "/v1/images", as: owner, bytes: photo, headers: [.contentType: "image/png"])
            #expect(uploaded.status == .created, "\(uploaded.text)")
            #expect(uploaded.json["contentType"] as? String == "image/jpeg")
            #expect(uploaded.json["width"] as? Int == 1600 && uploaded.json["height"] as? Int == 1200)
            let id = try #require(uploaded.json["id"] as? String).lowercased()
            #expect(uploaded.headers[.location] == "/v1/images/\(id)")
            let links = try #require(uploaded.json["links"] as? [String: Any])
            #expect(links["small"] as? String == "/v1/images/\(id)?size=small")

            var etags: Set<String> = []
            for (size, width) in [("original", 1600), ("medium", 1024), ("small", 320)] {
                let served = try await client.get("/v1/images/\(id)?size=\(size)", after: uploaded.position)
                #expect(served.status == .ok, "\(size): \(served.text)")
                #expect(served.headers[.contentType] == "image/jpeg")
                #expect(served.headers[.cacheControl] == "private, max-age=86400, immutable")
                #expect(!served.text.contains(marker) && !served.text.contains("GPS"))
                #expect(try Self.dimensions(served.body).width == width, "\(size)")
                let etag = try #require(served.etag)
                etags.insert(etag)
                #expect((try await client.call(.get, "/v1/images/\(id)?size=\(size)", headers: [.ifNoneMatch: etag])).status == .notModified)
            }
            #expect(etags.count == 3)
            #expect((try await client.call(.get, "/v1/images/\(id)?size=huge")).status.code / 100 == 4)

            let again = try await client.call(.post, "/v1/images", as: owner, bytes: photo)
            #expect((again.json["id"] as? String)?.lowercased() == id)
            #expect(try await client.runtime.blobStore.blobs(after: nil, limit: 100).count == 3)

            let listing = try await client.post(["imageIds": [id]], as: owner)
            #expect((listing.reply.json["imageIds"] as? [String])?.map { $0.lowercased() } == [id])
            let named = try #require((listing.reply.json["images"] as? [[String: Any]])?.first)
            #expect(named["medium"] as? String == "/v1/images/\(id)?size=medium")
            #expect((try await client.get("/v1/images/\(UUID())", after: nil)).status == .notFound)
        }
    }

    @Test(
        "only the uploader attaches a photo: the same picture from two people is two images over one blob, and a listing keeps what it has",
        arguments: Backend.allCases)
    func onlyTheUploaderAttaches(backend: Backend) async throws {
        let photo = try await PhotoTools.jpegWithPosition(width: 800, height: 600, marker: "mine")
        try await ListingsHarness(backend: backend).test { client in
            let (ada, bob) = (try await client.person(), try await client.person())
            let adas = try #require(try await client.call(.post, "/v1/images", as: ada, bytes: photo).json["id"] as? String).lowercased()
            let blobs = try await client.runtime.blobStore.blobs(after: nil, limit: 100).count
            let bobs = try #require(try await client.call(.post, "/v1/images", as: bob, bytes: photo).json["id"] as? String).lowercased()
            #expect(adas != bobs)
            #expect(try await client.runtime.blobStore.blobs(after: nil, limit: 100).count == blobs, "no blob stored twice")

            let taken = try await client.call(
                .post, "/v1/listings", as: bob, json: ListingsFixtures.listing.merging(["imageIds": [bobs, adas]]) { $1 })
            #expect(taken.status == .unprocessableContent, "\(taken.text)")
            #expect(Set(taken.errors.keys) == ["imageIds[1]"])
            let (listing, position, _) = try await client.post(["imageIds": [adas]], as: ada)

            // Ada keeps her photo on an edit; Bob cannot slip hers in beside his own.
            let etag = try #require(try await client.get("/v1/listings/\(listing)", as: ada, after: position).etag)
            let kept = try await client.call(
                .patch, "/v1/listings/\(listing)", as: ada, json: ["title": "Still mine", "imageIds": [adas]], headers: [.ifMatch: etag])
            #expect(kept.status == .ok, "\(kept.text)")
            let (own, ownPosition, _) = try await client.post(["imageIds": [bobs]], as: bob)
            let ownTag = try #require(try await client.get("/v1/listings/\(own)", as: bob, after: ownPosition).etag)
            let slipped = try await client.call(
                .patch, "/v1/listings/\(own)", as: bob, json: ["imageIds": [bobs, adas]], headers: [.ifMatch: ownTag])
            #expect(slipped.status == .unprocessableContent)
            #expect(Set(slipped.errors.keys) == ["imageIds[1]"])
        }
    }

    @Test("forty uploads at once from one account: each is stored or refused with 429 or 503 and Retry-After, and reads go on")
    func uploadBurst() async throws {
        let photo = try await PhotoTools.jpegWithPosition(width: 2400, height: 1800, noise: 30, marker: "burst")
        try await ListingsHarness(extra: ["COMMONS_PHOTO_JOBS": "1", "COMMONS_PHOTO_QUEUE": "1"]).test { client in
            let owner = try await client.person()
            let (listing, _, _) = try await client.post(as: owner)
            let replies = try await withThrowingTaskGroup(of: ListingsHarness.Reply.self) { group in
                for _ in 0..<40 { group.addTask { try await client.call(.post, "/v1/images", as: owner, bytes: photo) } }
                // A read in the middle of the burst is answered.
                let read = try await client.get("/v1/listings/\(listing)", after: nil)
                #expect(read.status == .ok)
                return try await group.reduce(into: [ListingsHarness.Reply]()) { $0.append($1) }
            }
            let statuses = replies.map(\.status.code)
            #expect(statuses.contains(201), "\(statuses)")
            for reply in replies where reply.status != .created {
                #expect([429, 503].contains(reply.status.code), "\(reply.status) \(reply.text)")
                #expect(Int(reply.headers[.retryAfter] ?? "") ?? 0 > 0)
                #expect(reply.headers[.contentType]?.hasPrefix("application/problem+json") == true)
            }
        }
    }

    @Test("an upload up to the limit works with an Idempotency-Key; the retry answers the first result and stores nothing twice")
    func idempotentUpload() async throws {
        let photo = try await PhotoTools.jpegWithPosition(width: 2400, height: 1800, noise: 30, marker: "retry")
        #expect(photo.count > 256 * 1024, "a phone-sized photo, far over JSON's 64 KiB")
        try await ListingsHarness().test { client in
            let owner = try await client.person()
            let first = try await client.call(.post, "/v1/images", as: owner, bytes: photo, headers: [.idempotencyKey: "photo-1"])
            #expect(first.status == .created, "\(first.text)")
            let retry = try await client.call(.post, "/v1/images", as: owner, bytes: photo, headers: [.idempotencyKey: "photo-1"])
            #expect(retry.status == .created)
            #expect(retry.headers[.init("Idempotent-Replayed")!] == "true")
            #expect(retry.body == first.body)
            #expect(try await client.runtime.blobStore.blobs(after: nil, limit: 100).count == 3)
            let id = try #require(first.json["id"] as? String)
            #expect(try await client.runtime.store.version(of: "image-\(id.lowercased())") == 1)
        }
    }

    @Test("formats Commons does not take are 415, broken pictures 422, over 10 MiB 413; nothing is stored; multipart works")
    func refusals() async throws {
        let whole = try #require(SamplePhoto.make(width: 800, height: 600, format: .jpeg, noise: 20))
        let png = try #require(SamplePhoto.make(width: 40, height: 30, format: .png))
        try await ListingsHarness().test { client in
            let owner = try await client.person()
            let gif = Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0]
            let unsupported = try await client.call(.post, "/v1/images", as: owner, bytes: gif, headers: [.contentType: "image/jpeg"])
            #expect(unsupported.status == .unsupportedMediaType)
            #expect((unsupported.json["detail"] as? String)?.contains("HEIC") == true)
            let truncated = try await client.call(.post, "/v1/images", as: owner, bytes: Array(whole.prefix(whole.count / 2)))
            #expect(truncated.status == .unprocessableContent, "\(truncated.text)")
            #expect(truncated.headers[.contentType] == "application/problem+json")
            #expect(try await client.runtime.blobStore.blobs(after: nil, limit: 10).isEmpty)
            let huge = png + [UInt8](repeating: 0, count: 10 * 1024 * 1024)
            #expect((try await client.call(.post, "/v1/images", as: owner, bytes: huge)).status == .contentTooLarge)
            #expect((try await client.call(.post, "/v1/images", bytes: png)).status == .unauthorized)

            let boundary = "commons-test-boundary"
            let body =
                Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"p.png\"\r\nContent-Type: image/png\r\n\r\n".utf8)
                + png + Array("\r\n--\(boundary)--\r\n".utf8)
            let multipart = try await client.call(
                .post, "/v1/images", as: owner, bytes: body,
                headers: [.contentType: "multipart/form-data; boundary=\(boundary)"])
            #expect(multipart.status == .created)
            #expect(multipart.json["contentType"] as? String == "image/png")
            #expect(multipart.json["width"] as? Int == 40)
        }
    }

    @Test(
        "a photo uploaded through one replica is served, in every size, by another with its own data directory",
        arguments: Backend.allCases)
    func replicasShareImages(backend: Backend) async throws {
        let photo = try await PhotoTools.jpegWithPosition(width: 1200, height: 900, marker: "replica")
        try await ListingsHarness(backend: backend).testReplicas { first, second in
            let owner = try await first.person()
            let uploaded = try await first.call(.post, "/v1/images", as: owner, bytes: photo)
            #expect(uploaded.status == .created)
            let id = try #require(uploaded.json["id"] as? String).lowercased()
            let original = try await first.get("/v1/images/\(id)", after: uploaded.position)
            for size in ["original", "medium", "small"] {
                let served = try await second.get("/v1/images/\(id)?size=\(size)", after: uploaded.position)
                #expect(served.status == .ok, "\(size) through the second replica: \(served.text)")
                if size == "original" { #expect(served.body == original.body) }
            }
            #expect(first.runtime.readModel.directory != second.runtime.readModel.directory)
        }
    }
}
