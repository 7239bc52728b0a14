import ArgumentParser
import AsyncHTTPClient
import EventLogSQLite
import Foundation
import ListingsService
import NIOCore
import PhotoCodec
import ServiceKit

/// `commons bench images`: photo uploads per second (cleaning, three sizes, the blob store
/// and the log, over loopback HTTP) beside libvips doing the same cleaning in process; and
/// small sizes served per second (and bytes per second) beside `/health/live` on the same server.
struct BenchImages: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "images", abstract: "Measure photo uploads and serving against libvips alone and /health/live.")

    @Option(help: "Seconds to measure each side of each case.")
    var seconds: Double = 5

    @Option(help: "The loopback port the service listens on during the run.")
    var port = 18_186

    func run() async throws {
        let duration = Duration.milliseconds(Int64(seconds * 1000))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("commons-bench-images-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // A 12-megapixel phone photo; noise makes it weigh what a camera's JPEG does.
        Bench.note("making phone-sized photos")
        let photos = try (0..<4).map { _ in
            guard let bytes = SamplePhoto.make(width: 4000, height: 3000, format: .jpeg, noise: 16) else {
                throw CommandFailure("libvips could not make a sample photo")
            }
            return bytes
        }

        let service = try await BenchListingsServer.start(directory: directory, port: port)
        let (client, base, token) = (service.client, service.base, try await service.memberToken())

        let cores = ProcessInfo.processInfo.activeProcessorCount
        Bench.note("uploads")
        let uploads = try await Bench.measure(workers: cores, for: duration) { worker in
            var next = worker
            return {
                next += 1
                var request = HTTPClientRequest(url: "\(base)/v1/images")
                request.method = .POST
                request.headers.add(name: "Authorization", value: "Bearer \(token)")
                request.headers.add(name: "Content-Type", value: "image/jpeg")
                request.body = .bytes(ByteBuffer(bytes: photos[next % photos.count]))
                let response = try await client.execute(request, timeout: .seconds(60))
                _ = try await response.body.collect(upTo: 1 << 16)
                guard response.status == .created else { throw CommandFailure("upload answered \(response.status)") }
                return 1
            }
        }
        let cleanings = try await Bench.measure(workers: cores, for: duration) { worker in
            var next = worker
            return {
                next += 1
                let photo = photos[next % photos.count]
                _ = try await Task.detached { try PhotoCleaner.clean(photo) }.value
                return 1
            }
        }

        // The small size of the first photo, fetched as a feed does.
        var upload = HTTPClientRequest(url: "\(base)/v1/images")
        upload.method = .POST
        upload.headers.add(name: "Authorization", value: "Bearer \(token)")
        upload.body = .bytes(ByteBuffer(bytes: photos[0]))
        let uploaded = try await client.execute(upload, timeout: .seconds(60))
        let reply = try await uploaded.body.collect(upTo: 1 << 16)
        guard let id = (try JSONSerialization.jsonObject(with: Data(reply.readableBytesView)) as? [String: Any])?["id"] as? String else {
            throw CommandFailure("the upload answered no id")
        }
        let small = "\(base)/v1/images/\(id.lowercased())?size=small"
        let smallBytes = try await client.execute(HTTPClientRequest(url: small), timeout: .seconds(10)).body.collect(upTo: 1 << 22).readableBytes
        let clients = 4 * cores
        Bench.note("serving the small size")
        let served = try await Bench.measure(workers: clients, for: duration) { _ in
            {
                try await Self.get(client, small); return 1
            }
        }
        let live = try await Bench.measure(workers: clients, for: duration) { _ in
            {
                try await Self.get(client, "\(base)/health/live"); return 1
            }
        }
        let burst = try await BenchUploadBurst(client: client, base: base, token: token).run()
        try await service.stop()

        let megabytes = Double(photos.map(\.count).reduce(0, +)) / Double(photos.count) / 1_000_000
        print(
            String(
                format:
                    "images: %.1f MB phone photos (4000 × 3000 JPEG), %d uploading clients; small size %d bytes, %d reading clients; %.0f s per measurement",
                megabytes, cores, smallBytes, clients, seconds))
        print("(ceilings: libvips cleaning the same photo into the same sizes in process; /health/live on the same server)")
        print(
            BenchRow.table(
                [
                    BenchRow(name: "upload a phone photo, with small and medium sizes (photos/s)", ours: uploads, ceiling: cleanings),
                    BenchRow(name: "serve the small size (requests/s)", ours: served, ceiling: live),
                ], ours: "ours /s", ceiling: "ceiling /s"))
        print(String(format: "small size served: %.1f MB/s", served * Double(smallBytes) / 1_000_000))
        print(burst.summary)
    }

    private static func get(_ client: HTTPClient, _ url: String) async throws {
        let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 22)
        guard response.status == .ok else { throw CommandFailure("\(url) answered \(response.status)") }
    }
}
