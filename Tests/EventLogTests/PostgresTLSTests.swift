import EventLog
import EventLogTestSupport
import Foundation
import PostgresNIO
import Testing

@testable import EventLogPostgres

/// `sslmode` and `sslrootcert` in the log's URL, against a real server that accepts TLS
/// connections only, with a certificate from a CA of its own.
@Suite("PostgreSQL over TLS")
struct PostgresTLSTests {
    @Test("require encrypts without checking the certificate; verify-full with the CA checks it; plain and unverified-CA connections are refused")
    func modes() async throws {
        try await ThrowawayPostgres.with(tls: true) { cluster in
            let base = "postgres://postgres@localhost:\(cluster.port)/postgres?schema=tls_test"

            for query in [
                "sslmode=require", "sslmode=verify-ca&sslrootcert=\(cluster.certificateAuthorityFile)",
                "sslmode=verify-full&sslrootcert=\(cluster.certificateAuthorityFile)",
            ] {
                let store = try await PostgresEventStore(configuration: try PostgresEventStoreConfiguration(url: "\(base)&\(query)"))
                _ = try await store.append(to: "tls-1", expected: .any, events: [testEvent("Encrypted")])
                var encrypted: Bool?
                for try await ssl in try await store.client.query("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()").decode(Bool.self) {
                    encrypted = ssl
                }
                #expect(encrypted == true, "\(query)")
                await store.shutdown()
            }

            // The server refuses plain connections; a CA the client does not trust fails the handshake.
            for query in ["sslmode=disable", "sslmode=verify-full"] {
                await #expect(throws: (any Error).self, "\(query)") {
                    let store = try await PostgresEventStore(configuration: try PostgresEventStoreConfiguration(url: "\(base)&\(query)"))
                    await store.shutdown()
                }
            }
        }
    }

    @Test("the URL's TLS parameters are checked before any connection, each with one clear line")
    func configuration() throws {
        #expect(try PostgresEventStoreConfiguration(url: "postgres://db/commons").tls == .disable)
        #expect(try PostgresEventStoreConfiguration(url: "postgres://db/commons?sslmode=verify-full").tls == .verifyFull)
        #expect(
            try PostgresEventStoreConfiguration(url: "postgres://db/commons?sslmode=verify-full").tlsConfiguration?.certificateVerification
                == .fullVerification)
        #expect(
            try PostgresEventStoreConfiguration(url: "postgres://db/commons?sslmode=require").tlsConfiguration?.certificateVerification
                == NIOSSL.CertificateVerification.none)
        #expect(try PostgresEventStoreConfiguration(url: "postgres://db/commons?sslmode=disable").tlsConfiguration == nil)

        let cases = [
            ("postgres://db/commons?sslmode=sometimes", "sslmode 'sometimes' is not one of disable, prefer, require, verify-ca, verify-full"),
            (
                "postgres://db/commons?sslmode=require&sslrootcert=/etc/hostname",
                "sslrootcert needs sslmode=verify-ca or verify-full (sslmode is require)"
            ),
            ("postgres://db/commons?sslmode=verify-full&sslrootcert=/nonexistent/ca.crt", "sslrootcert '/nonexistent/ca.crt' is not a readable file"),
            ("postgres://db/commons?ssl=true", "the URL parameter 'ssl' is not one of schema, sslmode, sslrootcert"),
        ]
        for (url, message) in cases {
            #expect(throws: PostgresConfigurationError.self, "\(url)") { try PostgresEventStoreConfiguration(url: url) }
            do { _ = try PostgresEventStoreConfiguration(url: url) } catch { #expect("\(error)" == message, "\(url)") }
        }
    }
}
