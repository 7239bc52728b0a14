import Foundation
import Logging

/// Sends mail to people. The local default writes each message to the outbox directory.
protocol Mailer: Sendable {
    func send(to address: String, subject: String, body: String) async throws
    /// Drops every message kept for `address` (its account was deleted).
    func forget(address: String) async throws
}

/// Writes each message as a file in `<data dir>/outbox/`, and logs that it did (not the
/// message, which may hold a secret token).
struct OutboxMailer: Mailer {
    let directory: URL
    let logger: Logger

    func send(to address: String, subject: String, body: String) async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let name = "\(Int(Date().timeIntervalSince1970 * 1000))-\(UUID().uuidString.prefix(8)).eml"
        let message = "To: \(address)\nSubject: \(subject)\nDate: \(Date().formatted(.iso8601))\n\n\(body)\n"
        try Data(message.utf8).write(to: directory.appendingPathComponent(name), options: .atomic)
        logger.info("mail written to the outbox", metadata: ["file": "\(name)", "subject": "\(subject)"])
        removeMessages { _, age in age > Self.retention }
    }

    /// How long a message stays: a reset code is good for an hour, so nothing in the outbox
    /// is worth more. Older messages go whenever another is written or an account deleted.
    static let retention: TimeInterval = 60 * 60

    func forget(address: String) async throws {
        removeMessages { text, age in age > Self.retention || text.hasPrefix("To: \(address)\n") }
    }

    private func removeMessages(where condition: (String, TimeInterval) -> Bool) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasSuffix(".eml") {
            let file = directory.appendingPathComponent(name)
            let modified = (try? FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date) ?? Date()
            guard let text = try? String(contentsOf: file, encoding: .utf8), condition(text, Date().timeIntervalSince(modified)) else { continue }
            try? FileManager.default.removeItem(at: file)
        }
    }
}
