import EventLog
import EventLogPostgres
import Foundation
import Metrics
import ServiceLifecycle

/// Records `commons_eventlog_oldest_transaction_age_seconds` every few seconds on
/// PostgreSQL: an old open transaction holds back delivery to every reader.
struct LogHealthReporter: Service {
    let store: any EventStore
    let service: String
    var interval: Duration = .seconds(5)

    func run() async throws {
        guard let postgres = ((store as? InstrumentedEventStore)?.base ?? store) as? PostgresEventStore else {
            try? await gracefulShutdown()
            return
        }
        let gauge = Gauge(label: "commons_eventlog_oldest_transaction_age_seconds", dimensions: [("service", service)])
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                if let age = try? await postgres.oldestOpenTransactionAge() { gauge.record(age) }
                try? await Task.sleep(for: interval)
            }
        }
    }
}

/// Fetches the public keys once the service is up (retrying while `accounts` starts), so
/// the first request does not pay for it; verification still fetches lazily if this fails.
struct KeyPrefetcher: Service {
    let verifier: TokenVerifier

    func run() async throws {
        await cancelWhenGracefulShutdown {
            try? await verifier.loadKeys(patience: .seconds(60))
        }
        try? await gracefulShutdown()
    }
}
