import Codecs
import CommonsAPI
import Contracts
import Crypto
import EventLog
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import ListingsDomain
import PhotoCodec
import ServiceKit

extension ListingsAPI {
    func addImageRoutes(to router: Router<AppRequestContext>) {
        router.post("/v1/images") { request, context in
            let identity = try context.requireIdentity()
            if let refusal = photoJobs.refusal(for: identity.accountId) { throw refusal }
            let body = try await request.readBody(upTo: PhotoCleaner.maximumUploadBytes)
            let raw = try ImageBodies.imageBytes(of: body, contentType: request.headers[.contentType])
            let photo = try await ImageBodies.clean(raw, jobs: photoJobs, account: identity.accountId)
            let (stored, position) = try await store(photo, uploader: identity.accountId, metadata: context.eventMetadata)
            let view = UploadedImage(
                id: stored.imageId, contentType: stored.contentType, byteCount: stored.byteCount, sha256: stored.sha256,
                width: stored.width, height: stored.height, links: ImageLinks(stored.imageId))
            return try Response.json(view, status: .created, position: position, location: "/v1/images/\(stored.imageId.lowercasedText)")
        }
        router.get("/v1/images/{id}") { request, context in
            let id = try context.parameters.uuid("id")
            let sizeName = request.uri.queryParameters["size"].map(String.init) ?? PhotoSize.original.rawValue
            guard let size = PhotoSize(rawValue: sizeName) else {
                // A bad query is a malformed request (400), as in every other query of the service.
                throw Problem.malformed(
                    "The query has invalid fields.",
                    errors: ["size": ["must be one of \(PhotoSize.allCases.map(\.rawValue).joined(separator: ", "))"]])
            }
            guard let address = try await address(of: id, size: size), let blob = try await blobs.header(of: address) else {
                throw Problem.notFound("There is no such image.")
            }
            var headers = HTTPFields()
            let etag = "\"\(address)\""
            headers[.eTag] = etag
            // The address names the content, so a size of an image never changes; but no shared
            // cache may keep a copy past its owner's deletion, and a browser keeps it a day.
            headers[.cacheControl] = "private, max-age=86400, immutable"
            if request.headers[.ifNoneMatch]?.split(separator: ",").contains(where: { $0.trimmingWhitespace() == etag }) == true {
                return Response(status: .notModified, headers: headers)
            }
            headers[.contentType] = blob.contentType
            // A piece at a time: a 10 MiB original held whole for each reader would let a few
            // anonymous readers fill the memory.
            let blobs = blobs
            return Response(
                status: .ok, headers: headers,
                body: ResponseBody(contentLength: blob.byteCount) { writer in
                    for try await chunk in blobs.chunks(of: address) { try await writer.write(ByteBuffer(bytes: chunk)) }
                    try await writer.finish(nil)
                })
        }
    }

    /// Stores every size of `photo` for `uploader` and records the image once; the same
    /// picture uploaded again by the same person is the same image. Blobs are shared by
    /// content: another person's identical picture makes them an owner of the same blobs.
    private func store(_ photo: CleanedPhoto, uploader: UUID, metadata: EventMetadata) async throws -> (ImageStored, Checkpoint?) {
        let original = photo.original
        let address = ImageBodies.contentAddress(original.bytes)
        let id = ImageBodies.imageId(address: address, uploader: uploader)
        var sizes: [StoredImageSize] = []
        for size in PhotoSize.variants {
            guard let variant = photo.sizes[size] else { continue }
            let variantAddress = ImageBodies.contentAddress(variant.bytes)
            try await blobs.put(variant.bytes, at: variantAddress, contentType: variant.format.contentType, owner: uploader)
            sizes.append(
                StoredImageSize(
                    size: size.rawValue, sha256: variantAddress, byteCount: variant.bytes.count,
                    width: variant.width, height: variant.height))
        }
        // The original last: an image whose original exists has all its sizes.
        try await blobs.put(original.bytes, at: address, contentType: original.format.contentType, owner: uploader)
        let stored = ImageStored(
            imageId: id, sha256: address, contentType: original.format.contentType, byteCount: original.bytes.count,
            uploaderId: uploader, storedAt: clock.now(), width: original.width, height: original.height, sizes: sizes)
        let stream = ImageUploads.stream(of: id)
        // Someone uploaded the same picture before or at the same moment: one image.
        return try await CommandHandler(store: runtime.store).handle(stream, load: { ((), try await runtime.store.version(of: stream)) }) {
            _, version in
            guard version == 0 else { return .answer((stored, nil)) }
            return .append([try EventCatalog.encode(stored, metadata: metadata)]) { (stored, $0.checkpoint) }
        }
    }

    /// The blob address of `size` of image `id`; an image stored before sizes existed serves
    /// its original for every size.
    private func address(of id: UUID, size: PhotoSize) async throws -> String? {
        try await runtime.readModel.pool.read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT sha256, small_sha256, medium_sha256 FROM images WHERE image_id = ?",
                    arguments: [id.lowercasedText])
            else { return nil }
            let original: String = row["sha256"]
            switch size {
            case .original: return original
            case .small: return row["small_sha256"] ?? original
            case .medium: return row["medium_sha256"] ?? original
            }
        }
    }
}

/// Reading an upload's bytes, cleaning them and naming the image.
enum ImageBodies {
    /// The image's bytes: the body itself, or the first file part of a `multipart/form-data` body.
    static func imageBytes(of body: ByteBuffer, contentType: String?) throws -> [UInt8] {
        let bytes = [UInt8](body.readableBytesView)
        guard let contentType, contentType.lowercased().hasPrefix("multipart/form-data") else { return bytes }
        guard let boundary = MultipartBody.boundary(of: contentType), let part = MultipartBody.firstFilePart(of: bytes, boundary: boundary) else {
            throw Problem.malformed("The multipart body has no file part.", errors: ["file": ["is required"]])
        }
        return part
    }

    /// `bytes` cleaned in every size as one of `jobs` (it takes a core for up to a second;
    /// past the bounds, 429 or 503); a refusal becomes its problem document: 415 for a format
    /// Commons does not take, 422 for a picture that does not decode or is too large.
    /// Cleans `bytes` in one of `jobs`' slots; a request that ends meanwhile (past its
    /// deadline, or at shutdown) stops libvips at once instead of letting it run to its end.
    static func clean(_ bytes: [UInt8], jobs: PhotoJobs, account: UUID) async throws -> CleanedPhoto {
        let cancellation = PhotoCancellation()
        do {
            return try await withTaskCancellationHandler {
                try await jobs.run(for: account) { try PhotoCleaner.clean(bytes, cancellation: cancellation) }
            } onCancel: {
                cancellation.cancel()
            }
        } catch PhotoRefusal.cancelled {
            throw CancellationError()
        } catch let refusal as PhotoRefusal {
            throw problem(refusal)
        }
    }

    static func problem(_ refusal: PhotoRefusal) -> Problem {
        switch refusal {
        case .unsupportedFormat:
            return Problem.unsupportedMediaType("Send a \(PhotoFormat.acceptedNames) image.")
        case .undecodable:
            return Problem(
                .unprocessableContent, type: "undecodable-image",
                detail: "The picture does not decode: it is truncated or damaged. Nothing was stored.")
        case .tooManyPixels:
            return Problem(
                .unprocessableContent, type: "image-too-large",
                detail: "The picture has more than \(PhotoCleaner.maximumPixels / 1_000_000) megapixels. Nothing was stored.")
        case .tooLargeCleaned:
            return Problem(
                .unprocessableContent, type: "image-too-large",
                detail: "The picture would be larger than \(PhotoCleaner.maximumCleanedBytes / 1_048_576) MiB once cleaned. Nothing was stored.")
        case .cancelled, .encodingFailed:
            return Problem(
                .unprocessableContent, type: "unconvertible-image",
                detail: "The picture could not be converted for serving. Nothing was stored.")
        }
    }

    /// The content address of `bytes`: their SHA-256 in lower-case hex.
    static func contentAddress(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).lowercaseHex
    }

    /// The image's id: a name-based UUID (version 8) of the content address and the uploader,
    /// so that one person's picture uploaded twice is one image, and the same picture from two
    /// people is two images over one stored blob: each person's is gone with their account.
    static func imageId(address: String, uploader: UUID) -> UUID {
        NameBasedID.make("\(address) \(uploader.lowercasedText)", version: .v8)
    }
}
