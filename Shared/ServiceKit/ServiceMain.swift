import Foundation
import Hummingbird
import Logging

/// The whole of a service executable: read configuration, build, run until SIGTERM/SIGINT (then drain and stop).
public enum ServiceMain {
    /// - Parameter publicKeys: where token keys come from; nil fetches them from `accounts`.
    public static func run(_ definition: ServiceDefinition, publicKeys: (any PublicKeySource)? = nil) async {
        // A misspelled variable would otherwise be ignored without a word.
        if let warning = KnownVariables.warning(for: ProcessInfo.processInfo.environment) {
            FileHandle.standardError.write(Data("\(definition.name): \(warning)\n".utf8))
        }
        do {
            let configuration = try ServiceConfiguration(service: definition.name, defaultPort: definition.defaultPort)
            // With tracing on, a log line carries the trace and span it was written in.
            let traceMetadata = try TraceExport.loggingMetadata(service: definition.name)
            LoggingSystem.bootstrap { label in
                switch configuration.logFormat {
                case .json:
                    var handler = JSONLogHandler(label: label)
                    handler.logLevel = configuration.logLevel
                    handler.metadataProvider = traceMetadata
                    return handler
                case .text:
                    var handler = TextLogHandler(showsProbes: configuration.logsProbes)
                    handler.logLevel = configuration.logLevel
                    handler.metadataProvider = traceMetadata
                    return handler
                }
            }
            let traceExport = try TraceExport.bootstrap(service: definition.name)
            let (application, runtime, _) = try await ServiceApp.build(
                definition, configuration: configuration, publicKeys: publicKeys, traceExport: traceExport)
            try await DrainingRun.run(
                application, drain: runtime.drain, period: configuration.shutdownDrain, logger: Logger(label: "commons.\(definition.name)"))
        } catch let error as ConfigurationError {
            FileHandle.standardError.write(Data("\(definition.name): \(error)\n".utf8))
            exit(2)
        } catch {
            FileHandle.standardError.write(Data("\(definition.name): \(error)\n".utf8))
            exit(1)
        }
    }
}
