import Foundation
import Logging
import OTel
import ServiceLifecycle
import Tracing

/// OpenTelemetry tracing, off unless an OTLP endpoint is configured. On, the process
/// bootstraps swift-otel's tracer (W3C `traceparent` propagation, batched OTLP/HTTP export)
/// and every request, append and projection of an appended event gets a span. Off, no tracer
/// is bootstrapped and none of those spans is made, so it costs nothing.
///
/// Configured with OpenTelemetry's own variables: `OTEL_EXPORTER_OTLP_ENDPOINT` (the
/// collector's base URL, e.g. `http://jaeger:4318`) or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`
/// turns it on; `OTEL_EXPORTER_OTLP_PROTOCOL` is `http/protobuf` (default) or `http/json`;
/// `OTEL_TRACES_SAMPLER`, `OTEL_BSP_*` and `OTEL_RESOURCE_ATTRIBUTES` work as the
/// specification says. gRPC export is not built in.
public enum TraceExport {
    /// Bootstraps tracing for `service` when `environment` configures an endpoint, and returns
    /// the service that exports spans (run it beside the server); nil when tracing is off.
    /// Call once per process.
    public static func bootstrap(service: String, environment: EnvironmentVariables = EnvironmentVariables()) throws -> (any Service)? {
        guard let configuration = try configuration(service: service, environment: environment) else { return nil }
        let backend = try OTel.makeTracingBackend(configuration: configuration)
        InstrumentationSystem.bootstrap(backend.factory)
        return backend.service
    }

    /// What joins a log line to its trace when tracing is on: the current span's `trace_id`
    /// and `span_id` as metadata of every line logged inside it (swift-otel's provider); nil
    /// when tracing is off, so that logging costs nothing more.
    public static func loggingMetadata(
        service: String, environment: EnvironmentVariables = EnvironmentVariables()
    ) throws -> Logger
        .MetadataProvider?
    {
        try configuration(service: service, environment: environment) == nil ? nil : OTel.makeLoggingMetadataProvider()
    }

    /// swift-otel's configuration for `service`, or nil when no endpoint is set; a value that
    /// cannot work is a ``ConfigurationError``. swift-otel applies the `OTEL_*` variables over it.
    static func configuration(service: String, environment: EnvironmentVariables) throws -> OTel.Configuration? {
        let endpointKeys = ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT"]
        guard let key = endpointKeys.first(where: { environment.string($0) != nil }), let endpoint = environment.string(key) else { return nil }
        if environment.string("OTEL_SDK_DISABLED")?.lowercased() == "true" || environment.string("OTEL_TRACES_EXPORTER") == "none" { return nil }
        guard let url = URL(string: endpoint), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw ConfigurationError(key: key, problem: "'\(endpoint)' is not an http:// or https:// URL of an OTLP collector")
        }
        for protocolKey in ["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"] {
            if let value = environment.string(protocolKey), !["http/protobuf", "http/json"].contains(value) {
                throw ConfigurationError(key: protocolKey, problem: "'\(value)' is not http/protobuf or http/json (gRPC export is not built in)")
            }
        }
        var configuration = OTel.Configuration.default
        configuration.serviceName = service
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        configuration.traces.enabled = true
        configuration.traces.exporter = .otlp
        configuration.traces.otlpExporter.protocol = .httpProtobuf
        configuration.diagnosticLogLevel = .warning
        return configuration
    }
}
