import EventLog
import Foundation
import GRDB
import Logging
import ServiceKit
import ServiceLifecycle

/// Writes down the expiries that have come: every `interval` it appends
/// `ListingStatusChanged(expired)` for each available listing past its expiry, so that
/// geo-search and the change feed learn of it. (Reads already show such a listing as expired.)
struct ExpirySweeper: Service {
    let commands: ListingsCommands
    let runtime: ServiceRuntime
    let interval: Duration

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled, runtime.isReady else { continue }
                do {
                    _ = try await sweepOnce()
                } catch {
                    runtime.logger.warning("expiry sweep failed", metadata: ["error": "\(String(reflecting: error))"])
                }
            }
        }
    }

    /// Expires what is due now (at most 500 listings a sweep); returns how many it wrote.
    func sweepOnce() async throws -> Int {
        let now = commands.clock.now().timeIntervalSince1970
        let due = try await runtime.readModel.pool.read { db in
            try String.fetchAll(
                db, sql: "SELECT listing_id FROM listings WHERE status = 'available' AND expires_at <= ? LIMIT 500",
                arguments: [now])
        }
        var written = 0
        for key in due {
            guard let id = UUID(uuidString: key) else { continue }
            if try await commands.expireIfDue(id, metadata: EventMetadata(service: ListingsService.name)) != nil { written += 1 }
        }
        return written
    }
}
