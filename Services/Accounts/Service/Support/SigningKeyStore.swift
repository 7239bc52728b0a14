import Crypto
import EventLog
import Foundation
import ServiceKit
import Synchronization

/// The access-token signing keys, shared by every accounts replica: one ring kept in the
/// service secrets beside the log (`accounts-signing-keys`), sealed with AES-GCM under a key
/// given from outside (see ``SigningSecret``). A replica reads the ring when it is older than
/// `refreshInterval` (and at once when asked for the public keys), so a rotation made by one
/// replica is used and published by all; a key rotated out stays published for a day longer
/// than any token lives, so tokens signed before a rotation verify until they expire.
final class SigningKeyStore: PublicKeySource, Sendable {
    static let secretName = "accounts-signing-keys"

    private struct State {
        var secrets: (any ServiceSecrets)?
        var ring: SigningKeyRing?
        var version: Int64 = 0
        var readAt = Date.distantPast
    }

    private let sealingKey: Result<SymmetricKey, any Error>
    private let rotationInterval: TimeInterval
    private let refreshInterval: TimeInterval
    /// A ring from before the keys were shared (`<data dir>/accounts-signing-keys.json`),
    /// used as the first shared ring so that tokens already issued keep verifying, and
    /// deleted once the shared store holds a ring: its private keys were in clear.
    private let legacyFile: String?
    private let state = Mutex(State())

    /// `sealingKey` may be a configuration error, thrown when the keys are first used (the
    /// CLI's account commands never sign, so they need no secret).
    init(
        sealingKey: Result<SymmetricKey, any Error>, rotationInterval: TimeInterval, refreshInterval: TimeInterval = 30,
        legacyFile: String? = nil
    ) {
        self.sealingKey = sealingKey
        self.rotationInterval = rotationInterval
        self.refreshInterval = refreshInterval
        self.legacyFile = legacyFile
    }

    /// The store as the service and the CLI use it: sealed with ``SigningSecret``, rotated
    /// every `COMMONS_SIGNING_KEY_DAYS` (30), kept beside `store`.
    /// A key for naming streams by an address without writing the address (or a plain hash
    /// of it) into the log: derived from the accounts secret, the same on every replica, one
    /// per use so that a sign-in stream and a reservation stream of one address do not match.
    func addressKey(for use: AddressUse) throws -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: try sealingKey.get(), info: Data(use.rawValue.utf8), outputByteCount: 32)
    }

    /// What an ``addressKey(for:)`` names.
    enum AddressUse: String {
        case signInThrottle = "commons sign-in throttle"
        case emailReservation = "commons email reservation"
    }

    static func live(environment: EnvironmentVariables, store: any EventStore) throws -> SigningKeyStore {
        let days = try environment.integer("COMMONS_SIGNING_KEY_DAYS", default: 30, in: 1...3_650)
        let keys = SigningKeyStore(
            sealingKey: Result { try SigningSecret.resolve(environment: environment) }, rotationInterval: Double(days) * 86_400,
            legacyFile: URL(fileURLWithPath: environment.dataDirectory).appendingPathComponent("accounts-signing-keys.json").path)
        keys.attach(try ServiceRuntime.serviceSecrets(beside: store))
        return keys
    }

    /// Where the ring is kept; the first call wins (the service attaches its runtime's).
    func attach(_ secrets: any ServiceSecrets) {
        state.withLock { if $0.secrets == nil { $0.secrets = secrets } }
    }

    /// The current ring: read again when older than the refresh interval (or `fresh`),
    /// made on first use, rotated when its newest key is older than the rotation interval.
    func ring(now: Date = Date(), fresh: Bool = false) async throws -> SigningKeyRing {
        let (cached, readAt, secrets) = state.withLock { ($0.ring, $0.readAt, $0.secrets) }
        if let cached, !fresh, now.timeIntervalSince(readAt) < refreshInterval { return cached }
        guard let secrets else { throw SigningKeysUnavailable() }
        for _ in 0..<5 {
            let stored = try await secrets.read(Self.secretName)
            var ring = try stored.map { try open($0.value) } ?? legacyRing() ?? SigningKeyRing.generate(now: now)
            let version = stored?.version ?? 0
            if stored != nil, let newest = ring.keys.last, now.timeIntervalSince(newest.createdAt) <= rotationInterval {
                remember(ring, version: version, at: now)
                forgetLegacyFile()
                return ring
            }
            if stored != nil {
                ring.rotate(now: now)
                ring.retire(olderThan: now.addingTimeInterval(-rotationInterval - 86_400))
            }
            // Written only if no other replica wrote first; else read what it wrote.
            if try await secrets.write(Self.secretName, value: try seal(ring), replacing: version) {
                remember(ring, version: version + 1, at: now)
                forgetLegacyFile()
                return ring
            }
        }
        throw SigningKeysUnavailable()
    }

    /// Makes a new signing key now, whatever the ring's age (operators, tests); returns the ring.
    @discardableResult
    func rotate(now: Date = Date()) async throws -> SigningKeyRing {
        guard let secrets = state.withLock({ $0.secrets }) else { throw SigningKeysUnavailable() }
        while true {
            guard let stored = try await secrets.read(Self.secretName) else {
                _ = try await ring(now: now, fresh: true)
                continue
            }
            var ring = try open(stored.value)
            ring.rotate(now: now)
            if try await secrets.write(Self.secretName, value: try seal(ring), replacing: stored.version) {
                remember(ring, version: stored.version + 1, at: now)
                return ring
            }
        }
    }

    /// The public keys, read afresh: a verifier asks when a token names a key it does not know.
    func fetchJWKS() async throws -> String {
        try await ring(fresh: true).jwks()
    }

    private func remember(_ ring: SigningKeyRing, version: Int64, at now: Date) {
        state.withLock {
            $0.ring = ring; $0.version = version; $0.readAt = now
        }
    }

    private func seal(_ ring: SigningKeyRing) throws -> Data {
        guard let combined = try AES.GCM.seal(try JSONEncoder().encode(ring), using: try sealingKey.get()).combined else {
            throw SigningKeysUnavailable()
        }
        return combined
    }

    private func open(_ sealed: Data) throws -> SigningKeyRing {
        let key = try sealingKey.get()
        do {
            return try JSONDecoder().decode(SigningKeyRing.self, from: try AES.GCM.open(AES.GCM.SealedBox(combined: sealed), using: key))
        } catch {
            throw ConfigurationError(
                key: "COMMONS_SIGNING_KEY_SECRET",
                problem: "the shared signing keys do not open with this secret: every accounts replica needs the same one")
        }
    }

    private func forgetLegacyFile() {
        guard let legacyFile, FileManager.default.fileExists(atPath: legacyFile) else { return }
        try? FileManager.default.removeItem(atPath: legacyFile)
    }

    private func legacyRing() -> SigningKeyRing? {
        guard let legacyFile, let data = FileManager.default.contents(atPath: legacyFile) else { return nil }
        return try? JSONDecoder().decode(SigningKeyRing.self, from: data)
    }
}

/// The signing keys cannot be read or written now (the store is unreachable, or the
/// service has not attached it yet).
struct SigningKeysUnavailable: Error, CustomStringConvertible {
    var description: String { "the token-signing keys cannot be read right now" }
}
