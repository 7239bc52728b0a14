import Foundation
import HTTPTypes
import Hummingbird
import ReadModel

/// `GET /v1/admin/<service>/snapshot`: this replica's read model as one SQLite file, for a new
/// replica of the same service to start from (``SnapshotRestore``). Only a replica may ask
/// (``ReplicaCredential``), and only a replica that has caught up with the log answers.
///
/// The answer starts at once and the copy is made while the body is sent, so a large read
/// model is not cut off by the request deadline. The copy is a file in the data directory,
/// unlinked as soon as it is open for sending: nothing of it stays behind, and a copy that a
/// crash interrupts is removed at the next start with the other files that are not live.
enum ReadModelSnapshotRoute {
    /// The media type of a SQLite database file.
    static let mediaType = "application/vnd.sqlite3"
    /// How much of the file each write of the body carries.
    static let chunkBytes = 1 << 20

    static func path(service: String) -> String { "/v1/admin/\(service)/snapshot" }

    static func addRoutes(to router: Router<AppRequestContext>, service: String, runtime: ServiceRuntime) {
        router.get(RouterPath(path(service: service))) { request, _ in
            guard runtime.replicaCredential.accepts(request.headers[ReplicaCredential.header]) else {
                throw Problem.forbidden("Only another replica of this service, with its credential, may fetch this read model.")
            }
            guard runtime.isReady else { throw Problem.notReady("This replica is still catching up with the log; ask another.") }
            let database = runtime.readModel
            var headers = HTTPFields()
            headers[.contentType] = mediaType
            headers[.cacheControl] = "no-store"
            return Response(
                status: .ok, headers: headers,
                body: ResponseBody { writer in
                    let path = ReadModelSnapshot.scratchPath(directory: database.directory, name: database.name)
                    let file: FileHandle
                    do {
                        try await ReadModelSnapshot.copy(of: database, to: path)
                        file = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
                    } catch {
                        ReadModelSnapshot.remove(path)
                        runtime.logger.error("read-model snapshot failed", metadata: ["error": "\(error)"])
                        throw error
                    }
                    ReadModelSnapshot.remove(path)
                    defer { try? file.close() }
                    while let chunk = try file.read(upToCount: chunkBytes), !chunk.isEmpty {
                        try await writer.write(ByteBuffer(bytes: chunk))
                    }
                    try await writer.finish(nil)
                    runtime.logger.notice("sent a read-model snapshot")
                })
        }
    }
}
