import AsyncHTTPClient
import Backoff
import EventLog
import Foundation
import Logging
import NIOCore
import ReadModel

/// Gives a replica that starts with no read model a snapshot to begin from
/// (`COMMONS_SNAPSHOT_SOURCE`): fetched from a peer (``ReadModelSnapshotRoute``) or read from
/// a file, checked (``ReadModelSnapshot/check(_:projections:)``), and made the live file.
/// The projections then go on from the snapshot's checkpoints; the service reports ready only
/// once they have caught up with the log, so every deletion since the snapshot was taken is
/// applied before anyone reads it. Whatever fails, the replica rebuilds from the log as it
/// would with no source: a snapshot saves time and is never needed.
enum SnapshotRestore {
    /// How long a peer may take to send its whole snapshot.
    static let patience = TimeAmount.minutes(30)

    /// Takes up a snapshot from `source` into `directory` unless read model `name` has a live
    /// file there already. True when one was taken up.
    @discardableResult
    static func restoreIfEmpty(
        from source: SnapshotSource, name: String, directory: URL, projections: [any Projection],
        credential: ReplicaCredential, logger: Logger
    ) async -> Bool {
        guard !ReadModelSnapshot.hasLiveFile(directory: directory, name: name) else { return false }
        let started = ContinuousClock.now
        let path = ReadModelSnapshot.scratchPath(directory: directory, name: name)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let bytes: Int64
            switch source {
            case .peer(let url):
                bytes = try await patiently(for: peerPatience) {
                    try await fetch(from: url, service: name, into: path, credential: credential)
                }
            case .file(let file):
                try FileManager.default.copyItem(atPath: file, toPath: path)
                bytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
            }
            let checkpoints = try ReadModelSnapshot.check(path, projections: projections)
            try ReadModelSnapshot.adopt(path, directory: directory, name: name)
            logger.notice(
                "started from a read-model snapshot; catching up from its checkpoints",
                metadata: [
                    "source": "\(source)", "bytes": "\(bytes)", "seconds": "\((ContinuousClock.now - started) / .seconds(1))",
                    "checkpoints": "\(checkpoints.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: ","))",
                ])
            return true
        } catch {
            ReadModelSnapshot.remove(path)
            logger.warning(
                "no read-model snapshot taken up; rebuilding from the log", metadata: ["source": "\(source)", "reason": "\(error)"])
            return false
        }
    }

    /// How long a replica keeps asking a peer that is not ready (503) or not reachable before
    /// it rebuilds from the log instead. The source is often a service's name (compose,
    /// Kubernetes), which may give a replica still catching up, or this one, not yet listening.
    static let peerPatience = Duration.seconds(20)

    /// `attempt` again, after a growing pause, until it succeeds, a peer refuses for good (any
    /// status but 503), or `patience` would be spent; then its last error.
    static func patiently<T>(
        for patience: Duration, pauses: Backoff = Backoff(initial: .milliseconds(500), maximum: .seconds(4)),
        _ attempt: () async throws -> T
    ) async throws -> T {
        let deadline = ContinuousClock.now + patience
        var pause = pauses.attempts()
        while true {
            do {
                return try await attempt()
            } catch let refused as PeerRefused where refused.status != 503 {
                throw refused
            } catch {
                let wait = pause.next()
                guard ContinuousClock.now + wait < deadline else { throw error }
                try await Task.sleep(for: wait)
            }
        }
    }

    /// A peer's answer that is not a snapshot.
    struct PeerRefused: Error, CustomStringConvertible {
        let status: UInt
        let detail: String
        var description: String { "the peer answered \(status): \(detail)" }
    }

    /// Streams the peer's snapshot into a new file at `path`; returns its size.
    private static func fetch(from base: URL, service: String, into path: String, credential: ReplicaCredential) async throws -> Int64 {
        var request = HTTPClientRequest(url: base.appendingPathComponent(ReadModelSnapshotRoute.path(service: service)).absoluteString)
        request.headers.add(name: ReplicaCredential.header.rawName, value: credential.value)
        let response = try await HTTPClient.shared.execute(request, timeout: patience)
        guard response.status == .ok else {
            let body = try await response.body.collect(upTo: 64 * 1024)
            throw PeerRefused(status: response.status.code, detail: String(buffer: body))
        }
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? file.close() }
        var written: Int64 = 0
        for try await chunk in response.body {
            try file.write(contentsOf: chunk.readableBytesView)
            written += Int64(chunk.readableBytes)
        }
        try file.synchronize()
        return written
    }
}
