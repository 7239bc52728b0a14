import Foundation

/// Where a replica with no read model takes one from at start (`COMMONS_SNAPSHOT_SOURCE`):
/// a peer, another replica of the same service reached at its own address, or a file an
/// operator saved from one.
public enum SnapshotSource: Sendable, Equatable, CustomStringConvertible {
    /// A replica's base URL, such as `http://geo-search:8083`.
    case peer(URL)
    /// A snapshot file on this machine.
    case file(String)

    /// The source `text` names: an `http(s)://` base URL or a file (a `file://` URL or an
    /// absolute path); nil for anything else.
    public init?(_ text: String) {
        if let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host != nil {
            self = .peer(url)
        } else if text.hasPrefix("file://"), let url = URL(string: text), !url.path.isEmpty {
            self = .file(url.path)
        } else if text.hasPrefix("/") {
            self = .file(text)
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case .peer(let url): url.absoluteString
        case .file(let path): path
        }
    }
}
