import ArgumentParser
import Foundation

/// The groups of cases `commons bench eventlog --cases` runs, so that one can be measured
/// on its own while working on it.
struct BenchEventLogCases: OptionSet, ExpressibleByArgument {
    let rawValue: Int

    static let append = BenchEventLogCases(rawValue: 1 << 0)
    static let readAll = BenchEventLogCases(rawValue: 1 << 1)
    static let sqlite = BenchEventLogCases(rawValue: 1 << 2)
    static let all: BenchEventLogCases = [.append, .readAll, .sqlite]

    private static let names: [(name: String, cases: BenchEventLogCases)] = [("append", .append), ("read-all", .readAll), ("sqlite", .sqlite)]

    init(rawValue: Int) { self.rawValue = rawValue }

    /// A comma-separated list of `append`, `read-all` and `sqlite`; nil when a name is unknown.
    init?(argument: String) {
        var cases: BenchEventLogCases = []
        for name in argument.split(separator: ",") {
            guard let known = Self.names.first(where: { $0.name == name.trimmingCharacters(in: .whitespaces) }) else { return nil }
            cases.insert(known.cases)
        }
        guard !cases.isEmpty else { return nil }
        self = cases
    }

    static var allValueStrings: [String] { names.map(\.name) }
    var defaultValueDescription: String { "all" }
}
