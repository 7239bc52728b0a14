import ArgumentParser
import Contracts
import EventLog
import Foundation

/// `commons events verify`: checks the whole log's integrity and that every event decodes.
struct EventsVerify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check that stream versions run 1, 2, 3…, ids are unique and every event decodes; exits 1 on any problem.")

    @OptionGroup var store: EventStoreOption

    func run() async throws {
        try await store.withStore { store in
            let report = try await verifyLog(store, catalog: CommonsEvents.catalog)
            let summary = "\(report.events) events in \(report.streams) streams"
            guard !report.problems.isEmpty else {
                print("OK: \(summary); versions contiguous, ids unique, every event decodes")
                return
            }
            print("checked \(summary)")
            for problem in report.problems.prefix(200) { print("problem: \(problem)") }
            if report.problems.count > 200 { print("… and \(report.problems.count - 200) more problems") }
            print("\(report.problems.count) problem\(report.problems.count == 1 ? "" : "s") found")
            throw ExitCode.failure
        }
    }
}

/// What ``verifyLog(_:catalog:)`` found.
struct VerifyReport {
    var events = 0
    var streams = 0
    /// One line per problem: a stream whose versions are not 1…n, a repeated id, an unknown
    /// type (once per type) or an event that does not decode.
    var problems: [String] = []
}

/// Reads the whole log and checks it.
func verifyLog(_ store: any EventStore, catalog: EventCatalog) async throws -> VerifyReport {
    var report = VerifyReport()
    var versions: [String: [Int64]] = [:]
    var ids = Set<UUID>()
    var unknownTypes: [String: (count: Int, first: RecordedEvent)] = [:]
    try await forEachPage(of: store, after: .start) { events in
        for event in events {
            report.events += 1
            versions[event.stream, default: []].append(event.version)
            if !ids.insert(event.id).inserted {
                report.problems.append("id \(event.id.lowercasedText) appears more than once, again at \(event.stream)@\(event.version)")
            }
            do {
                if try catalog.decode(event) == nil {
                    unknownTypes[event.type, default: (0, event)].count += 1
                }
            } catch {
                report.problems.append("event \(event.id.lowercasedText) at \(event.stream)@\(event.version): \(CommandFailure(error))")
            }
        }
        return true
    }
    report.streams = versions.count
    for (stream, streamVersions) in versions.sorted(by: { $0.key < $1.key }) {
        if let problem = versionProblem(streamVersions.sorted()) { report.problems.append("stream \(stream): \(problem)") }
    }
    for (type, unknown) in unknownTypes.sorted(by: { $0.key < $1.key }) {
        let first = unknown.first
        report.problems.append(
            "unknown event type \(type): \(unknown.count) event\(unknown.count == 1 ? "" : "s"), first \(first.id.lowercasedText) at \(first.stream)@\(first.version)"
        )
    }
    return report
}

/// Why sorted `versions` are not exactly 1, 2, 3…; nil when they are.
func versionProblem(_ versions: [Int64]) -> String? {
    for (index, version) in versions.enumerated() where version != Int64(index) + 1 {
        let expected = Int64(index) + 1
        if index > 0, version == versions[index - 1] { return "version \(version) appears more than once" }
        return expected == 1 ? "starts at version \(version), not 1" : "version \(expected) is missing (next is \(version))"
    }
    return nil
}
