import Foundation

/// A blob (a photo or one of its sizes) as a line of `commons events export`, beside the
/// exported events: `{"blob": "<sha256>", "contentType": …, "owners": […], "bytes": "<base64>"}`.
/// Exports write every blob before the first event, so a restore has the bytes before the
/// events that name them.
public struct ExportedBlob: Codable, Hashable, Sendable {
    /// The blob's address, the hex SHA-256 of its bytes; its key is `blob`, which no
    /// exported event has, so the two kinds of line are told apart by their first key.
    public var blob: String
    public var contentType: String
    public var owners: [UUID]
    /// Standard base64.
    public var bytes: String

    public init(_ blob: Blob) {
        self.blob = blob.address
        contentType = blob.contentType
        owners = blob.owners
        bytes = Data(blob.bytes).base64EncodedString()
    }

    /// The blob, or an error when the line is not one (bad address or base64).
    public func stored() throws -> Blob {
        guard Blob.isAddress(blob) else { throw ExportFormatError("\"blob\" is not a SHA-256 in lower-case hex") }
        guard let data = Data(base64Encoded: bytes) else { throw ExportFormatError("\"bytes\" is not base64") }
        return Blob(address: blob, contentType: contentType, bytes: [UInt8](data), owners: owners)
    }

    /// True when an export line is a blob: it starts with the key `blob`.
    public static func isBlobLine(_ line: Data) -> Bool {
        line.starts(with: Array(#"{"blob""#.utf8))
    }
}
