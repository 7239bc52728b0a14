import Foundation
import Spawn

#if canImport(Glibc)
    import Glibc
#endif

/// A PostgreSQL cluster of a test's own, on 127.0.0.1, which the test may stop and start
/// again (a restart under load, an outage) without disturbing the other tests' servers.
/// As root it runs as the `postgres` user, since PostgreSQL refuses to run as root.
public final class ThrowawayPostgres: Sendable {
    public let port: Int
    public let directory: String
    private let binaries: String
    private let asPostgres: [String]

    /// The URL of its `postgres` database.
    public var url: String { "postgres://postgres@127.0.0.1:\(port)/postgres" }

    /// The CA certificate (PEM) that signed the server's certificate, when started with TLS.
    public var certificateAuthorityFile: String { "\(directory)/ca.crt" }

    /// Runs `body` with a cluster of its own, which is stopped and removed afterwards,
    /// whether `body` returned or threw. With `tls`, see ``start(tls:)``.
    public static func with<T>(tls: Bool = false, _ body: (ThrowawayPostgres) async throws -> T) async throws -> T {
        let cluster = try await start(tls: tls)
        do {
            let result = try await body(cluster)
            await cluster.destroy()
            return result
        } catch {
            await cluster.destroy()
            throw error
        }
    }

    /// Creates and starts the cluster (about a second). With `tls`, it accepts TLS
    /// connections only, with a certificate for `localhost` and `127.0.0.1` signed by a CA of
    /// its own (``certificateAuthorityFile``), and refuses plain ones.
    public static func start(tls: Bool = false) async throws -> ThrowawayPostgres {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        guard let version = versions.sorted(by: { $0.compare($1, options: .numeric) == .orderedAscending }).last else {
            throw TestSetupError("no PostgreSQL server under /usr/lib/postgresql (apt-get install postgresql)")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pg-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let asPostgres = getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []
        if getuid() == 0, let user = getpwnam("postgres") { _ = chown(directory, user.pointee.pw_uid, user.pointee.pw_gid) }
        let cluster = ThrowawayPostgres(
            port: try FreePorts.pick(), directory: directory, binaries: "/usr/lib/postgresql/\(version)/bin",
            asPostgres: asPostgres)
        try await cluster.run("initdb", ["-D", "\(directory)/data", "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"])
        if tls { try await cluster.requireTLS() }
        try await cluster.resume()
        return cluster
    }

    private init(port: Int, directory: String, binaries: String, asPostgres: [String]) {
        self.port = port
        self.directory = directory
        self.binaries = binaries
        self.asPostgres = asPostgres
    }

    /// Makes a CA and a server certificate with openssl (as the server's user, so that the
    /// key is its own), turns TLS on and lets only TLS connections in over TCP.
    private func requireTLS() async throws {
        let openssl = asPostgres + ["/usr/bin/openssl"]
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try await exec(
            openssl + ["req", "-x509"] + curve + [
                "-keyout", "\(directory)/ca.key", "-out", "\(directory)/ca.crt",
                "-days", "2", "-subj", "/CN=Commons test CA",
            ])
        try await exec(
            openssl + ["req"] + curve + [
                "-keyout", "\(directory)/server.key", "-out", "\(directory)/server.csr",
                "-subj", "/CN=localhost",
            ])
        try "subjectAltName=DNS:localhost,IP:127.0.0.1\n".write(toFile: "\(directory)/san.ext", atomically: true, encoding: .utf8)
        try await exec(
            openssl + [
                "x509", "-req", "-in", "\(directory)/server.csr", "-CA", "\(directory)/ca.crt",
                "-CAkey", "\(directory)/ca.key", "-CAcreateserial", "-out", "\(directory)/server.crt",
                "-days", "2", "-extfile", "\(directory)/san.ext",
            ])
        let settings = "\nssl = on\nssl_cert_file = '\(directory)/server.crt'\nssl_key_file = '\(directory)/server.key'\n"
        let conf = try FileHandle(forWritingTo: URL(fileURLWithPath: "\(directory)/data/postgresql.conf"))
        try conf.seekToEnd()
        try conf.write(contentsOf: Data(settings.utf8))
        try conf.close()
        let rules = ["local all all trust", "hostssl all all 127.0.0.1/32 trust", "hostnossl all all 127.0.0.1/32 reject"]
        try (rules.joined(separator: "\n") + "\n").write(toFile: "\(directory)/data/pg_hba.conf", atomically: false, encoding: .utf8)
    }

    /// Stops the server at once (`-m fast`: clients are disconnected, open transactions roll back).
    public func pause() async throws {
        try await run("pg_ctl", ["-D", "\(directory)/data", "-m", "fast", "-w", "stop"])
    }

    /// Starts the server again on the same port; returns once it accepts connections.
    public func resume() async throws {
        try await run(
            "pg_ctl",
            [
                "-D", "\(directory)/data", "-l", "\(directory)/server.log", "-w", "start",
                "-o", "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c max_connections=400",
            ])
    }

    /// Stops the server and removes its files.
    public func destroy() async {
        try? await pause()
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func run(_ tool: String, _ arguments: [String]) async throws {
        try await exec(asPostgres + ["\(binaries)/\(tool)"] + arguments)
    }

    private func exec(_ command: [String]) async throws {
        let tool = command.dropFirst(asPostgres.count).first ?? command[0]
        let result = try await SpawnedProcess.output(of: command[0], Array(command.dropFirst()))
        guard result.status == .exited(0) else {
            let log = (try? String(contentsOfFile: "\(directory)/server.log", encoding: .utf8)) ?? ""
            throw TestSetupError("\(tool) failed: \(result.stderr)\(result.stdout)\n\(log.suffix(2_000))")
        }
    }
}
