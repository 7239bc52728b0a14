import Foundation
import Spawn

/// wrk, a load generator in C (Debian's `wrk`), as `commons bench http` drives it: issue 17
/// asks for one that is not the bottleneck. On this project's 2-core machine AsyncHTTPClient
/// in `commons` got 15,000 `GET /health/live` a second from a service that answered wrk
/// 24,000–25,000: the Swift client took the cores the server needed, and every ratio to
/// `/health/live` came out closer to 1 than the server earns.
///
/// The requests are made up front (a Swift closure picks each path, as the case wants, say a
/// random place) and the script cycles through them, each thread from a random start.
struct Wrk: Sendable {
    /// The wrk executable.
    var executable: String

    /// One measurement: the requests a second, and how many there were.
    struct Run: Sendable {
        var rate: Double
        var requests: Int
    }

    /// How many different requests a case's script holds.
    static let requestsPerScript = 2_000

    /// Throws a clear line when wrk is not installed.
    func check() throws {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw CommandFailure("bench http needs wrk, a load generator in C (apt-get install wrk): \(executable) not found")
        }
    }

    /// wrk's threads for `connections` connections: one per core, and no more than the connections.
    static func threads(connections: Int) -> Int { max(1, min(connections, ProcessInfo.processInfo.activeProcessorCount)) }

    /// A warm-up of a second, then the measured run of ``run(base:paths:headers:connections:threads:seconds:)``
    /// (threads by ``threads(connections:)``); `beforeMeasuring` is called between the two.
    func measure(
        base: String, paths: [String], headers: [[String: String]]? = nil, connections: Int, seconds: Int,
        beforeMeasuring: () -> Void = {}
    ) async throws -> Run {
        let headers = headers ?? Array(repeating: [:], count: paths.count)
        let threads = Self.threads(connections: connections)
        _ = try await run(base: base, paths: paths, headers: headers, connections: connections, threads: threads, seconds: 1)
        beforeMeasuring()
        return try await run(base: base, paths: paths, headers: headers, connections: connections, threads: threads, seconds: seconds)
    }

    /// Runs `connections` connections over `threads` threads against `base` for `seconds`,
    /// each request one of `paths` with its header fields. Throws if wrk fails, or if any
    /// answer was not 2xx or any socket failed.
    func run(base: String, paths: [String], headers: [[String: String]], connections: Int, threads: Int, seconds: Int) async throws -> Run {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wrk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("requests.lua")
        try Data(Self.script(paths: paths, headers: headers).utf8).write(to: script)
        let arguments = [
            "--threads", String(threads), "--connections", String(connections), "--duration", "\(seconds)s", "--script", script.path, base,
        ]
        let (status, stdout, stderr) = try await SpawnedProcess.output(of: executable, arguments)
        guard status == .exited(0), let run = Self.parse(stdout) else { throw CommandFailure("wrk \(status): \(stderr.isEmpty ? stdout : stderr)") }
        if let failed = Self.count(after: "Non-2xx or 3xx responses:", in: stdout), failed > 0 {
            throw CommandFailure("wrk: \(failed) answers were not 2xx\n\(stdout)")
        }
        if stdout.contains("Socket errors:") { throw CommandFailure("wrk: socket errors\n\(stdout)") }
        // A server that accepts connections and never answers leaves wrk with no errors at all.
        guard run.requests > 0 else { throw CommandFailure("wrk: no answer in \(seconds) s from \(base)\n\(stdout)") }
        return run
    }

    /// A Lua script that sends the requests in turn, starting at a random one in each thread.
    static func script(paths: [String], headers: [[String: String]]) -> String {
        precondition(!paths.isEmpty && paths.count == headers.count)
        let entries = zip(paths, headers).map { path, fields in
            let table = fields.sorted { $0.key < $1.key }.map { "[\(lua($0.key))] = \(lua($0.value))" }.joined(separator: ", ")
            return "  wrk.format(\"GET\", \(lua(path)), {\(table)}),"
        }
        return """
            local prepared
            local next = 0
            function init(args)
              prepared = {
            \(entries.joined(separator: "\n"))
              }
              math.randomseed(os.time() + math.floor(os.clock() * 1000000))
              next = math.random(#prepared) - 1
            end
            function request()
              next = next % #prepared + 1
              return prepared[next]
            end

            """
    }

    /// `text` as a Lua string literal.
    static func lua(_ text: String) -> String {
        var literal = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": literal += "\\\""
            case "\\": literal += "\\\\"
            case "\n": literal += "\\n"
            default: literal.unicodeScalars.append(scalar)
            }
        }
        return literal + "\""
    }

    /// The rate and the count of requests in wrk's summary.
    static func parse(_ output: String) -> Run? {
        guard
            let rate = output.split(separator: "\n").first(where: { $0.hasPrefix("Requests/sec:") })
                .flatMap({ Double($0.dropFirst("Requests/sec:".count).trimmingCharacters(in: .whitespaces)) }),
            let line = output.split(separator: "\n").first(where: { $0.contains(" requests in ") }),
            let requests = Int(line.trimmingCharacters(in: .whitespaces).prefix { $0.isNumber })
        else { return nil }
        return Run(rate: rate, requests: requests)
    }

    /// The number after `label` on its line of `output`, if the line is there.
    static func count(after label: String, in output: String) -> Int? {
        output.split(separator: "\n").first { $0.contains(label) }
            .flatMap { line in Int(line.components(separatedBy: label).last?.trimmingCharacters(in: .whitespaces) ?? "") }
    }
}
