import Contracts
import Crypto
import EventLog
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import ListingsDomain
import ServiceKit

extension ListingsAPI {
    /// What an upload answers.
    struct ImageView: Encodable {
        var id: UUID
        var contentType: String
        var byteCount: Int
        var sha256: String
    }

    func addImageRoutes(to router: Router<AppRequestContext>) {
        router.post("/v1/images") { request, context in
            let identity = try context.requireIdentity()
            let body = try await request.readBody(upTo: ImageUpload.maximumBytes)
            let raw = try ImageBodies.imageBytes(of: body, contentType: request.headers[.contentType])
            let upload: ImageUpload
            do throws(ImageUpload.Refusal) {
                upload = try ImageUpload.prepare(raw)
            } catch .unsupportedFormat {
                throw Problem.unsupportedMediaType("Send a JPEG, PNG, WebP or HEIC image.")
            } catch .malformedJPEG {
                throw Problem.unsupportedMediaType("This JPEG is damaged: its segments do not parse.")
            }
            let address = contentAddress(upload.bytes)
            let id = ImageBodies.imageId(address: address)
            try await blobs.put(upload.bytes, at: address)
            let stream = ListingStreams.image(id)
            var position: Checkpoint?
            if try await runtime.store.version(of: stream) == 0 {
                let stored = ImageStored(imageId: id, sha256: address, contentType: upload.format.contentType, byteCount: upload.bytes.count,
                                         uploaderId: identity.accountId, storedAt: clock.now())
                do {
                    position = try await runtime.store.append(to: stream, expected: .noStream,
                                                              events: [try EventCatalog.encode(stored, metadata: context.eventMetadata)]).checkpoint
                } catch EventStoreError.wrongExpectedVersion {
                    // Someone uploaded the same bytes at the same moment: one image.
                }
            }
            let view = ImageView(id: id, contentType: upload.format.contentType, byteCount: upload.bytes.count, sha256: address)
            return try Response.json(view, status: .created, position: position, location: "/v1/images/\(id.key)")
        }
        router.get("/v1/images/{id}") { request, context in
            let id = try context.parameters.uuid("id")
            let found = try await runtime.readModel.pool.read { db -> (sha256: String, contentType: String)? in
                try Row.fetchOne(db, sql: "SELECT sha256, content_type FROM images WHERE image_id = ?", arguments: [id.key])
                    .map { ($0["sha256"], $0["content_type"]) }
            }
            guard let found, let bytes = try await blobs.get(found.sha256) else { throw Problem.notFound("There is no such image.") }
            var headers = HTTPFields()
            let etag = "\"\(found.sha256)\""
            headers[.eTag] = etag
            headers[.cacheControl] = "public, max-age=31536000, immutable"
            if request.headers[.ifNoneMatch]?.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == etag }) == true {
                return Response(status: .notModified, headers: headers)
            }
            headers[.contentType] = found.contentType
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }
    }
}

/// Reading an upload's bytes and naming the image.
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

    /// The image's id: a UUID made of the first 16 bytes of the content's SHA-256, with the
    /// version-8 (custom) and variant bits set, so that the same bytes are always one image.
    static func imageId(address: String) -> UUID {
        var bytes = stride(from: 0, to: 32, by: 2).map { offset -> UInt8 in
            let start = address.index(address.startIndex, offsetBy: offset)
            return UInt8(address[start..<address.index(start, offsetBy: 2)], radix: 16) ?? 0
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
