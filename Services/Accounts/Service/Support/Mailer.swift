import Foundation
import Logging

/// Sends mail to people. The local default writes each message to the outbox directory.
protocol Mailer: Sendable {
    func send(to address: String, subject: String, body: String) async throws
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
    }
}
