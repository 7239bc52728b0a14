import Foundation
import ServiceKit
import Synchronization

/// Keeps the access-token signing keys in `<data dir>/accounts-signing-keys.json` (mode
/// 0600), rotating to a new key when the newest is older than `rotationInterval`. Old keys
/// stay published for a day after a rotation, longer than any access token lives.
final class SigningKeyStore: Sendable {
    private let path: String
    private let ring: Mutex<SigningKeyRing>

    init(directory: String, rotationInterval: TimeInterval, now: Date = Date()) throws {
        path = URL(fileURLWithPath: directory).appendingPathComponent("accounts-signing-keys.json").path
        var ring: SigningKeyRing
        if let data = FileManager.default.contents(atPath: path) {
            ring = try JSONDecoder().decode(SigningKeyRing.self, from: data)
        } else {
            ring = SigningKeyRing.generate(now: now)
        }
        if let newest = ring.keys.last, now.timeIntervalSince(newest.createdAt) > rotationInterval {
            ring.rotate(now: now)
        }
        ring.retire(olderThan: now.addingTimeInterval(-rotationInterval - 86_400))
        self.ring = Mutex(ring)
        try save(ring)
    }

    var current: SigningKeyRing { ring.withLock { $0 } }

    private func save(_ ring: SigningKeyRing) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try JSONEncoder().encode(ring).write(to: URL(fileURLWithPath: path), options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    }
}
