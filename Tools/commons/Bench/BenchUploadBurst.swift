import AsyncHTTPClient
import Foundation
import NIOCore
import PhotoCodec

/// The `images` case of reads beside a burst: how long `GET /v1/listings/{id}` takes alone,
/// then while one account sends forty photos of nearly 10 MiB at once, and how the uploads
/// past the service's bound were answered.
struct BenchUploadBurst {
    let client: HTTPClient
    let base: String
    let token: String

    struct Result {
        var photoBytes: Int
        var alone: [Double]
        var beside: [Double]
        /// How many uploads got each status.
        var statuses: [UInt: Int]
    }

    func run(uploads: Int = 40) async throws -> Result {
        let photo = try Self.largestPhoto()
        let listing = try await postListing()
        Bench.note("reads alone")
        var alone: [Double] = []
        for _ in 0..<200 { alone.append(try await timedRead(listing)) }
        Bench.note("reads beside \(uploads) uploads at once")
        let reader = Task {
            var latencies: [Double] = []
            while !Task.isCancelled {
                do {
                    latencies.append(try await timedRead(listing))
                } catch  where Task.isCancelled {
                    break
                }
            }
            return latencies
        }
        let statuses = try await withThrowingTaskGroup(of: UInt.self) { group in
            for _ in 0..<uploads { group.addTask { try await self.upload(photo) } }
            return try await group.reduce(into: [UInt: Int]()) { $0[$1, default: 0] += 1 }
        }
        reader.cancel()
        let beside = try await reader.value
        return Result(photoBytes: photo.count, alone: alone, beside: beside, statuses: statuses)
    }

    /// The noisiest 4,000 × 3,000 JPEG that is still under the upload limit.
    private static func largestPhoto() throws -> [UInt8] {
        for noise: Double in [48, 36, 28, 20, 16] {
            if let bytes = SamplePhoto.make(width: 4000, height: 3000, format: .jpeg, noise: noise),
                bytes.count <= PhotoCleaner.maximumUploadBytes
            {
                return bytes
            }
        }
        throw CommandFailure("libvips could not make a sample photo under the upload limit")
    }

    private func postListing() async throws -> String {
        var request = HTTPClientRequest(url: "\(base)/v1/listings")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Content-Type", value: "application/json")
        let body: [String: Any] = [
            "title": "Read while photos arrive", "category": "Household", "condition": "good",
            "pickupLocation": ["lat": 52.52, "lon": 13.40],
        ]
        request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body)))
        let response = try await client.execute(request, timeout: .seconds(30))
        let reply = try await response.body.collect(upTo: 1 << 20)
        guard response.status == .created,
            let id = (try JSONSerialization.jsonObject(with: Data(reply.readableBytesView)) as? [String: Any])?["id"] as? String
        else { throw CommandFailure("posting a listing answered \(response.status)") }
        return id
    }

    /// Seconds one read of the listing took.
    private func timedRead(_ listing: String) async throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        let response = try await client.execute(HTTPClientRequest(url: "\(base)/v1/listings/\(listing)"), timeout: .seconds(60))
        _ = try await response.body.collect(upTo: 1 << 20)
        guard response.status == .ok else { throw CommandFailure("reading the listing answered \(response.status)") }
        let elapsed = clock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    private func upload(_ photo: [UInt8]) async throws -> UInt {
        var request = HTTPClientRequest(url: "\(base)/v1/images")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Content-Type", value: "image/jpeg")
        request.body = .bytes(ByteBuffer(bytes: photo))
        let response = try await client.execute(request, timeout: .seconds(120))
        _ = try await response.body.collect(upTo: 1 << 20)
        return response.status.code
    }
}

extension BenchUploadBurst.Result {
    /// The lines `commons bench images` prints for this case.
    var summary: String {
        let answered = statuses.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key)" }.joined(separator: ", ")
        func milliseconds(_ values: [Double], _ fraction: Double) -> Double {
            let sorted = values.sorted()
            return sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))] * 1_000
        }
        func ms(_ values: [Double], _ fraction: Double) -> String { String(format: "%.1f ms", milliseconds(values, fraction)) }
        let ratio = String(format: "%.2f", milliseconds(beside, 0.99) / milliseconds(alone, 0.99))
        let megabytes = String(format: "%.1f", Double(photoBytes) / 1_000_000)
        return """
            reading a listing beside \(statuses.values.reduce(0, +)) uploads at once of a \(megabytes) MB photo from one account \
            (answered: \(answered)):
              alone:  p50 \(ms(alone, 0.5)), p99 \(ms(alone, 0.99)) (\(alone.count) reads)
              beside: p50 \(ms(beside, 0.5)), p99 \(ms(beside, 0.99)) (\(beside.count) reads); p99 beside / alone \(ratio)
            """
    }
}
