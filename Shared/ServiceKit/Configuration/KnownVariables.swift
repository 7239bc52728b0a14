import Foundation

/// Every `COMMONS_*` variable some part of Commons reads (docs/configuration.md lists each,
/// and a test holds the two together), so that a misspelled one is reported rather than
/// silently ignored.
public enum KnownVariables {
    public static let names: Set<String> = [
        "COMMONS_ACCOUNTS_URL", "COMMONS_BCRYPT_COST", "COMMONS_BOOTSTRAP_ADMIN_EMAIL", "COMMONS_CATALOG_FILE",
        "COMMONS_CREDENTIAL_RATE_LIMIT_PER_MINUTE", "COMMONS_DATA_DIR", "COMMONS_DONATIONS_FILE", "COMMONS_E2E_BIN_DIR",
        "COMMONS_E2E_GATEWAY", "COMMONS_E2E_KEEP", "COMMONS_E2E_POSTGRES_URL", "COMMONS_EVENT_STORE", "COMMONS_GATEWAY_PORT",
        "COMMONS_GATEWAY_URL", "COMMONS_GRAFANA_PORT", "COMMONS_HOST", "COMMONS_JAEGER_PORT", "COMMONS_KEEP_WEB_LOG",
        "COMMONS_KEY_VAULT_PREVIOUS_SECRET", "COMMONS_KEY_VAULT_PREVIOUS_SECRET_FILE", "COMMONS_KEY_VAULT_SECRET",
        "COMMONS_KEY_VAULT_SECRET_FILE", "COMMONS_LISTINGS_FILE", "COMMONS_LISTING_EXPIRY_SWEEP_SECONDS",
        "COMMONS_LISTING_LIFETIME_DAYS", "COMMONS_LISTING_RENEW_HOURS", "COMMONS_LISTING_REPORTER_ESTABLISHED_DAYS",
        "COMMONS_LISTING_REPORT_THRESHOLD", "COMMONS_LISTS_FILE", "COMMONS_LOG_FORMAT", "COMMONS_LOG_LEVEL", "COMMONS_LOG_PROBES",
        "COMMONS_MIN_POSITION_PATIENCE_MS", "COMMONS_ORGANIZATIONS_FILE", "COMMONS_PAYMENTS", "COMMONS_PEERS", "COMMONS_PHOTO_JOBS",
        "COMMONS_PHOTO_JOBS_PER_ACCOUNT", "COMMONS_PHOTO_QUEUE", "COMMONS_PORT", "COMMONS_PROMETHEUS_PORT",
        "COMMONS_RATE_LIMIT_PER_MINUTE", "COMMONS_RECURRING_INTERVAL_SECONDS", "COMMONS_REQUEST_DEADLINE_SECONDS",
        "COMMONS_SEARCH_MEMORY_LISTINGS", "COMMONS_SEARCH_SCAN_LIMIT", "COMMONS_SESSIONS_PER_ACCOUNT", "COMMONS_SIGNING_KEY_DAYS",
        "COMMONS_SHUTDOWN_DRAIN_SECONDS", "COMMONS_SIGNING_KEY_SECRET", "COMMONS_SIGNING_KEY_SECRET_FILE", "COMMONS_SNAPSHOT_SOURCE",
        "COMMONS_STARTUP_PATIENCE_SECONDS",
        "COMMONS_TEST_POSTGRES_OPTIONS", "COMMONS_TEST_POSTGRES_URL", "COMMONS_TEST_STALL_SECONDS", "COMMONS_TOPOLOGY_PATIENCE",
        "COMMONS_TRUSTED_PROXIES", "COMMONS_WEB_DATA_DIR", "COMMONS_WEB_SCREENSHOTS", "COMMONS_WEB_URL", "COMMONS_WEB_WORKERS",
    ]

    /// The `COMMONS_*` names in `environment` that no part of Commons reads, each with the
    /// known name nearest to it (a few letters off), if any.
    public static func unknown(in environment: [String: String]) -> [(name: String, nearest: String?)] {
        environment.keys.filter { $0.hasPrefix("COMMONS_") && !names.contains($0) }.sorted().map { name in
            let nearest = names.map { ($0, distance(name, $0)) }.filter { $0.1 <= 3 }.min { ($0.1, $0.0) < ($1.1, $1.0) }?.0
            return (name, nearest)
        }
    }

    /// The line that reports `unknown` names, or nil when there are none.
    public static func warning(for environment: [String: String]) -> String? {
        let unknown = unknown(in: environment)
        guard !unknown.isEmpty else { return nil }
        let described = unknown.map { name, nearest in nearest.map { "\(name) (did you mean \($0)?)" } ?? name }
        return "unknown variables, ignored: \(described.joined(separator: ", "))"
    }

    /// The edit distance of `a` and `b` (insertions, deletions and substitutions).
    static func distance(_ a: String, _ b: String) -> Int {
        let (a, b) = (Array(a.utf8), Array(b.utf8))
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
