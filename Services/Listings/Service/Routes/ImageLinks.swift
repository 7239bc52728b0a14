import Foundation
import PhotoCodec

/// Where a listing's photo is served in each size, so that an app never builds the
/// addresses itself: `{"id": …, "small": "/v1/images/<id>?size=small", "medium": …, "original": …}`.
struct ImageLinks: Encodable, Sendable, Equatable {
    var id: UUID
    var small: String
    var medium: String
    var original: String

    init(_ id: UUID) {
        self.id = id
        let base = "/v1/images/\(id.lowercasedText)"
        small = "\(base)?size=\(PhotoSize.small.rawValue)"
        medium = "\(base)?size=\(PhotoSize.medium.rawValue)"
        original = base
    }
}
