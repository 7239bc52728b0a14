import Crypto
import Foundation

/// Where uploaded bytes live, addressed by the hex SHA-256 of their content.
public protocol BlobStore: Sendable {
    /// Stores `bytes` under `address` (their SHA-256); storing the same address again is harmless.
    func put(_ bytes: [UInt8], at address: String) async throws
    /// The bytes at `address`, or nil when there are none.
    func get(_ address: String) async throws -> [UInt8]?
}

/// A blob store in a local directory: `<directory>/<first two hex digits>/<address>`,
/// written to a temporary file and renamed, so a reader never sees half a blob.
public struct LocalDirectoryBlobStore: BlobStore {
    public let directory: URL

    public init(directory: URL) { self.directory = directory }

    public func put(_ bytes: [UInt8], at address: String) async throws {
        guard Self.isAddress(address) else { throw CocoaError(.fileWriteInvalidFileName) }
        let folder = directory.appendingPathComponent(String(address.prefix(2)))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let target = folder.appendingPathComponent(address)
        if FileManager.default.fileExists(atPath: target.path) { return }
        let temporary = folder.appendingPathComponent(".\(address).\(UUID().uuidString)")
        try Data(bytes).write(to: temporary)
        if rename(temporary.path, target.path) != 0 {
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown)
        }
    }

    public func get(_ address: String) async throws -> [UInt8]? {
        guard Self.isAddress(address) else { return nil }
        let file = directory.appendingPathComponent(String(address.prefix(2))).appendingPathComponent(address)
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        return [UInt8](data)
    }

    /// 64 lower-case hex digits: nothing else can name a file here.
    static func isAddress(_ text: String) -> Bool {
        text.count == 64 && text.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) }
    }
}

/// The content address of `bytes`: their SHA-256 in lower-case hex.
func contentAddress(_ bytes: [UInt8]) -> String {
    SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
}
