import Contracts
import EventLog
import Foundation

/// Images in the log as the listings service records an upload, for the tests of services
/// that attach images without storing them.
public enum StoredImages {
    /// Records that `uploader` uploaded a new picture; its id.
    public static func record(by uploader: UUID, in store: any EventStore) async throws -> UUID {
        let id = UUID()
        let stored = ImageStored(
            imageId: id, sha256: String(repeating: "0", count: 64), contentType: "image/jpeg", byteCount: 1, uploaderId: uploader,
            storedAt: Date(), width: 1, height: 1, sizes: [])
        _ = try await store.append(to: ImageUploads.stream(of: id), expected: .noStream, events: [try EventCatalog.encode(stored)])
        return id
    }
}
