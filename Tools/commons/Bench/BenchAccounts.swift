import AccountsService
import ArgumentParser
import Codecs
import CommonsBench
import Crypto
import EventLog
import EventLogSQLite
import Foundation
import JWTKit
import Logging
import ServiceKit

/// `commons bench accounts`: access-token verifications and sign-ins per second, each
/// beside the raw operation underneath (an Ed25519 signature check, a bcrypt check).
struct BenchAccounts: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts", abstract: "Measure token verification and sign-in against raw Ed25519 and bcrypt.")

    @Option(help: "Seconds to measure each side of each case.")
    var seconds: Double = 5

    @Option(help: "The bcrypt cost (default COMMONS_BCRYPT_COST or 11, the service's default).")
    var bcryptCost: Int?

    func run() async throws {
        let duration = Duration.milliseconds(Int64(seconds * 1000))
        let cost = try bcryptCost ?? EnvironmentVariables().integer("COMMONS_BCRYPT_COST", default: 11, in: 4...16)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("commons-bench-accounts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let workers = ProcessInfo.processInfo.activeProcessorCount

        // Token verification: the service's verifier (JWT parsing, claims, EdDSA) vs a raw signature check.
        let ring = SigningKeyRing.generate()
        let (signer, kid) = try await ring.signer()
        let token = try await signer.sign(
            AccessTokenClaims(accountId: UUID(), sessionId: UUID(), role: .member, issuedAt: Date(), lifetime: 3_600), kid: .init(string: kid))
        let verifier = TokenVerifier(source: LocalPublicKeySource { ring }, logger: Logger(label: "bench"))
        _ = try await verifier.verify(token)
        let verifications = try await Bench.measure(workers: workers, for: duration) { _ in
            {
                _ = try await verifier.verify(token); return 1
            }
        }
        let raw = try rawSignatureCheck(ring: ring, token: token)
        let rawVerifications = try await Bench.measure(workers: workers, for: duration) { _ in
            {
                guard raw() else { throw CommandFailure("signature did not verify") }; return 1
            }
        }

        // Sign-in: the whole command path vs the bcrypt check alone, at the same cost.
        let store = try SQLiteEventStore(path: directory.appendingPathComponent("events.sqlite").path)
        let environment = EnvironmentVariables(["COMMONS_DATA_DIR": directory.path, "COMMONS_BCRYPT_COST": String(cost)])
        let signIn = try await AccountsBenchmark.signIn(store: store, environment: environment)
        let signIns = try await Bench.measure(workers: workers, for: duration) { _ in
            {
                try await signIn(); return 1
            }
        }
        let check = AccountsBenchmark.bcryptCheck(cost: cost)
        let bcrypts = try await Bench.measure(workers: workers, for: duration) { _ in
            {
                try await check(); return 1
            }
        }
        await store.shutdown()

        print("accounts, \(workers) concurrent workers, bcrypt cost \(cost), \(seconds) s per measurement")
        print(
            BenchRow.table([
                BenchRow(name: "access-token verifications", ours: verifications, ceiling: rawVerifications),
                BenchRow(name: "sign-ins (SQLite log)", ours: signIns, ceiling: bcrypts),
            ]))
    }

    /// A check of the token's Ed25519 signature and nothing else.
    private func rawSignatureCheck(ring: SigningKeyRing, token: String) throws -> @Sendable () -> Bool {
        let parts = token.split(separator: ".")
        guard parts.count == 3, let key = ring.keys.last, let privateKey = Data(base64Encoded: key.privateKey),
            let signature = Base64URL.decode(String(parts[2])).map({ Data($0) })
        else { throw CommandFailure("cannot take the token apart") }
        let publicKey = try Curve25519.Signing.PrivateKey(rawRepresentation: privateKey).publicKey
        let message = Data("\(parts[0]).\(parts[1])".utf8)
        return { publicKey.isValidSignature(signature, for: message) }
    }
}
