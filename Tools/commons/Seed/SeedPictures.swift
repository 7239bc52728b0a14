import CPhotoCodec
import Foundation

/// Demo photos drawn by the project: a drawing of `Data/pictures/<name>.svg` (an object in
/// a 400 × 300 view box, on a transparent ground) set in a room (a wall, a floor and a
/// shadow), rendered to a JPEG by libvips (its SVG loader is librsvg), the way a phone
/// would send a photo. Nothing is downloaded, and the same inputs give the same bytes.
enum DemoPicture {
    /// The width and height of a photo: 4:3, as phones take them.
    static let size = (width: 1200, height: 900)

    /// The `variant`th photo of one item (0: the whole scene; 1: closer; 2: from further
    /// away, in another light), with the drawing's colours replaced by `colours` (keys are
    /// the drawing's own `#rrggbb` values); `seed` picks the room's colours.
    static func jpeg(drawing: String, variant: Int, colours: [String: String] = [:], seed: Int) throws -> [UInt8] {
        try render(svg: scene(drawing: drawing, variant: variant, colours: colours, seed: seed))
    }

    /// The SVG document of that photo.
    static func scene(drawing: String, variant: Int, colours: [String: String], seed: Int) -> String {
        var item = drawing
        for (from, to) in colours { item = item.replacingOccurrences(of: from, with: to, options: .caseInsensitive) }
        // The drawing's own <svg> element nests, placed on the room's 400 × 300 whatever part of it is in view.
        if let start = item.range(of: "<svg") {
            item = #"<svg x="0" y="0" width="400" height="300""# + item[start.upperBound...]
        }
        let rooms = [("#efe6d6", "#b08a60"), ("#dfe8ec", "#8d7b68"), ("#f3ede4", "#9c6b43"), ("#e4e9df", "#a39178"), ("#ece3ea", "#7f6a58")]
        let room = rooms[abs(seed + variant * 2) % rooms.count]
        let view = ["0 0 400 300", "70 52 260 195", "-40 -30 480 360"][variant % 3]
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(size.width)" height="\(size.height)" viewBox="\(view)">
            <rect x="-100" y="-100" width="600" height="500" fill="\(room.0)"/>
            <rect x="-100" y="228" width="600" height="200" fill="\(room.1)"/>
            <rect x="-100" y="226" width="600" height="4" fill="#000" opacity=".08"/>
            <ellipse cx="200" cy="231" rx="140" ry="9" fill="#000" opacity=".12"/>
            \(item)
            </svg>
            """
    }

    /// `svg` rendered and encoded as a JPEG by libvips, with no metadata.
    static func render(svg: String) throws -> [UInt8] {
        let input = Array(svg.utf8)
        var output = photo_codec_output()
        let status = input.withUnsafeBytes { bytes in
            photo_codec_encode(bytes.baseAddress, bytes.count, ".jpg", 85, nil, 0, Int64(size.width * size.height * 4), nil, &output)
        }
        defer { photo_codec_free(output.data) }
        guard status == PHOTO_CODEC_OK, output.length > 0 else {
            var buffer = [CChar](repeating: 0, count: 512)
            photo_codec_last_error(&buffer, buffer.count)
            let reason = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw CommandFailure(
                "libvips could not render a demo picture (is librsvg there?): \(reason.isEmpty ? "status \(status.rawValue)" : reason)")
        }
        return [UInt8](UnsafeRawBufferPointer(start: output.data, count: output.length))
    }
}
