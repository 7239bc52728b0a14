import ArgumentParser
import EventLog
import Foundation
import Logging
import ServiceKit

/// `commons events`: read, export, import, verify and park the events of the log.
struct Events: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read, export, import, verify and park the events of the log.",
        subcommands: [
            EventsTail.self, EventsStream.self, EventsShow.self, EventsStats.self, EventsExport.self, EventsImport.self,
            EventsVerify.self, EventsPark.self, EventsUnpark.self, EventsParked.self,
        ]
    )
}

/// The `--event-store` option that every `commons events` subcommand takes.
struct EventStoreOption: ParsableArguments {
    @Option(
        name: .customLong("event-store"),
        help: ArgumentHelp(
            "The event log: a SQLite file path, or a postgres:// URL (`?schema=name` selects the schema).",
            discussion: "Default: COMMONS_EVENT_STORE, else <COMMONS_DATA_DIR or .commons>/events.sqlite.",
            valueName: "location"))
    var eventStore: String?

    var location: EventStoreLocation {
        let environment = EnvironmentVariables()
        guard let eventStore else { return environment.eventStore }
        return EventStoreLocation(eventStore, dataDirectory: environment.dataDirectory)
    }

    /// Opens the log, runs `work` on it and shuts it down, also when `work` throws.
    /// Errors come back as a ``CommandFailure``, whose one line ArgumentParser prints on
    /// stderr before exiting with status 1.
    func withStore(_ work: (any EventStore) async throws -> Void) async throws {
        let store: any EventStore
        do {
            store = try await open(location)
        } catch let error as ConfigurationError where eventStore != nil {
            throw CommandFailure("--event-store: \(error.problem)")
        } catch {
            throw CommandFailure(error)
        }
        do {
            try await work(store)
        } catch {
            await store.shutdown()
            throw error is ExitCode ? error : CommandFailure(error)
        }
        await store.shutdown()
    }

    /// How long a command waits for the log to open before it gives up.
    static let openTimeoutSeconds = 30

    /// Opens `location`, or fails after ``openTimeoutSeconds``: the PostgreSQL client retries
    /// an unreachable server forever, and a command should fail rather than hang.
    private func open(_ location: EventStoreLocation) async throws -> any EventStore {
        let opening = Task {
            var logger = Logger(label: "commons")
            // Failures reach the user as the command's one error line, not as log output.
            logger.logLevel = .critical
            return try await location.open(logger: logger)
        }
        let timer = Task {
            try await Task.sleep(for: .seconds(Self.openTimeoutSeconds))
            opening.cancel()
        }
        defer { timer.cancel() }
        do {
            return try await opening.value
        } catch {
            guard opening.isCancelled else { throw error }
            throw CommandFailure("cannot open the event log at \(location) within \(Self.openTimeoutSeconds) s")
        }
    }
}

/// Why a command failed, in one line.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    init(_ error: any Error) {
        if let failure = error as? CommandFailure {
            self = failure
        } else {
            self.init(String(describing: error))
        }
    }
}
