/// The sizes a photo is kept in: the cleaned original, and smaller copies for feeds.
public enum PhotoSize: String, Sendable, CaseIterable, Codable {
    /// At most 320 px on the long edge: thumbnails in lists and maps.
    case small
    /// At most 1,024 px on the long edge: a photo filling a phone screen.
    case medium
    /// The whole picture, upright and without metadata.
    case original

    /// The longest edge in pixels; nil for the original. A photo is never enlarged.
    public var longEdge: Int? {
        switch self {
        case .small: 320
        case .medium: 1024
        case .original: nil
        }
    }

    /// The smaller sizes, smallest first.
    public static let variants: [PhotoSize] = [.small, .medium]
}
