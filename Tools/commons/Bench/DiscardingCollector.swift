import Foundation
import Hummingbird
import Synchronization

/// An OTLP/HTTP endpoint that takes every export and keeps nothing but a count: what
/// `commons bench http --tracing` sends spans to, so that tracing costs the services what
/// it would with a real collector, and nothing of a collector's work is measured.
final class DiscardingCollector: Sendable {
    let url: String
    private let server: Task<Void, any Error>
    private let exports: SpanExportCount

    private init(url: String, server: Task<Void, any Error>, exports: SpanExportCount) {
        self.url = url
        self.server = server
        self.exports = exports
    }

    /// Exports received so far.
    var received: Int { exports.value.load(ordering: .relaxed) }

    static func start() async throws -> DiscardingCollector {
        let counter = SpanExportCount()
        let router = Router()
        router.post("/v1/traces") { request, _ -> Response in
            _ = try await request.body.collect(upTo: 64 << 20)
            counter.value.add(1, ordering: .relaxed)
            return Response(status: .ok)
        }
        let (port, reported) = AsyncStream.makeStream(of: Int.self)
        let application = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                reported.yield(channel.localAddress?.port ?? 0); reported.finish()
            })
        let server = Task { try await application.runService(gracefulShutdownSignals: []) }
        var listening = 0
        for await value in port { listening = value }
        guard listening > 0 else { server.cancel(); throw CommandFailure("the span collector could not listen") }
        return DiscardingCollector(url: "http://127.0.0.1:\(listening)", server: server, exports: counter)
    }

    func stop() { server.cancel() }
}

private final class SpanExportCount: Sendable {
    let value = Atomic<Int>(0)
}
