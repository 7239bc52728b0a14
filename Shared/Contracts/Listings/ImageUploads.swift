import Codecs
import EventLog
import Foundation

/// Who uploaded an image, and so who may attach it: to a listing, an avatar, a donation post
/// or an organisation's logo, only the person who uploaded the picture may attach it (an id
/// already attached may stay). Read from the image's own stream, so an upload is attachable
/// the moment its answer arrives, on every service.
public enum ImageUploads {
    /// The stream an image's ``ImageStored`` opens: `image-<imageId>`.
    public static func stream(of imageId: UUID) -> String { "image-\(imageId.lowercasedText)" }

    /// The account that uploaded `imageId`; nil when no such image was ever stored.
    public static func uploader(of imageId: UUID, in store: any EventStore) async throws -> UUID? {
        let first = try await store.read(stream: stream(of: imageId), from: nil, direction: .forwards, limit: 1).first
        return try first.flatMap { try CommonsEvents.catalog.decode($0) as? ImageStored }?.uploaderId
    }

    /// What is wrong with attaching each of `ids` for `actor`, by the field's path in the body
    /// (`path(index)`): an id never uploaded, or one someone else uploaded. Ids in `attached`
    /// (already on the thing being changed) are not checked. Empty when all may be attached.
    public static func problems(
        attaching ids: [UUID], by actor: UUID, keeping attached: Set<UUID> = [], in store: any EventStore,
        path: (Int) -> String
    ) async throws -> [String: [String]] {
        var problems: [String: [String]] = [:]
        for (index, id) in ids.enumerated() where !attached.contains(id) {
            switch try await uploader(of: id, in: store) {
            case nil: problems[path(index)] = ["is not an uploaded image"]
            case actor: continue
            default: problems[path(index)] = ["is an image someone else uploaded: upload the picture yourself"]
            }
        }
        return problems
    }
}
