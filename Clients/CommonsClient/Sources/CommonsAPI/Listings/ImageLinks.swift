import Foundation

/// The sizes the service keeps of every photo.
public enum ImageSize: String, Codable, Sendable, CaseIterable {
    /// At most 320 px on the long edge: lists and map pins.
    case small
    /// At most 1,024 px on the long edge: a photo filling a phone screen.
    case medium
    /// The whole picture (upright, with no location or camera metadata).
    case original
}

/// Where each size of a photo is served, as paths below the client's base URL.
public struct ImageLinks: Codable, Sendable, Equatable {
    public var id: UUID
    public var small: String
    public var medium: String
    public var original: String

    public init(id: UUID, small: String, medium: String, original: String) {
        self.id = id
        self.small = small
        self.medium = medium
        self.original = original
    }

    /// Where the service serves the photo `id` in each size, so that an app never builds the
    /// addresses itself: `/v1/images/<id>?size=small`, `?size=medium`, and the original at
    /// `/v1/images/<id>`.
    public init(_ id: UUID) {
        let base = "/v1/images/\(id.uuidString.lowercased())"
        self.init(
            id: id, small: "\(base)?size=\(ImageSize.small.rawValue)", medium: "\(base)?size=\(ImageSize.medium.rawValue)",
            original: base)
    }

    /// The path of `size`.
    public func path(_ size: ImageSize) -> String {
        switch size {
        case .small: small
        case .medium: medium
        case .original: original
        }
    }
}
