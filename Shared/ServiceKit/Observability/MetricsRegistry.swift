import Metrics
import Prometheus
import Synchronization

/// The process's Prometheus registry; swift-metrics is bootstrapped with it once.
public enum MetricsRegistry {
    private static let shared: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }()

    /// Bootstraps swift-metrics (once) and returns the registry.
    public static var registry: PrometheusCollectorRegistry { shared }

    /// The registry's text exposition.
    public static func exposition() -> [UInt8] {
        var buffer: [UInt8] = []
        shared.emit(into: &buffer)
        return buffer
    }
}
