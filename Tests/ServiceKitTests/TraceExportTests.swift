import Testing

@testable import ServiceKit

/// When tracing is on, and which settings stop a process (no I/O: the configuration only).
@Suite("trace export configuration")
struct TraceExportTests {
    @Test("off without an endpoint, with an empty one (compose's default), or when the SDK is disabled")
    func offByDefault() throws {
        #expect(try TraceExport.configuration(service: "listings", environment: EnvironmentVariables([:])) == nil)
        #expect(try TraceExport.configuration(service: "listings", environment: EnvironmentVariables(["OTEL_EXPORTER_OTLP_ENDPOINT": ""])) == nil)
        #expect(
            try TraceExport.configuration(
                service: "listings",
                environment: EnvironmentVariables([
                    "OTEL_EXPORTER_OTLP_ENDPOINT": "http://jaeger:4318", "OTEL_SDK_DISABLED": "true",
                ])) == nil)
        #expect(
            try TraceExport.configuration(
                service: "listings",
                environment: EnvironmentVariables([
                    "OTEL_EXPORTER_OTLP_ENDPOINT": "http://jaeger:4318", "OTEL_TRACES_EXPORTER": "none",
                ])) == nil)
    }

    @Test("on with either endpoint: traces only, named after the service, over OTLP/HTTP")
    func onWithEndpoint() throws {
        for key in ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] {
            let configuration = try #require(
                try TraceExport.configuration(
                    service: "geo-search", environment: EnvironmentVariables([key: "https://collector.example:4318"])))
            #expect(configuration.serviceName == "geo-search")
            #expect(configuration.traces.enabled)
            #expect(!configuration.metrics.enabled && !configuration.logs.enabled, "metrics stay with Prometheus, logs with stdout")
        }
    }

    @Test("an endpoint that is not an http(s) URL, or a protocol not built in, is a configuration error naming the variable")
    func badSettings() {
        #expect(
            throws: ConfigurationError(
                key: "OTEL_EXPORTER_OTLP_ENDPOINT",
                problem: "'jaeger:4318' is not an http:// or https:// URL of an OTLP collector")
        ) {
            try TraceExport.configuration(service: "accounts", environment: EnvironmentVariables(["OTEL_EXPORTER_OTLP_ENDPOINT": "jaeger:4318"]))
        }
        #expect(
            throws: ConfigurationError(
                key: "OTEL_EXPORTER_OTLP_PROTOCOL",
                problem: "'grpc' is not http/protobuf or http/json (gRPC export is not built in)")
        ) {
            try TraceExport.configuration(
                service: "accounts",
                environment: EnvironmentVariables([
                    "OTEL_EXPORTER_OTLP_ENDPOINT": "http://jaeger:4318", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc",
                ]))
        }
    }
}
