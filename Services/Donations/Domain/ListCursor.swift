import Foundation

/// The opaque `cursor` of a list: the sort value and id of the last item of a page, so the
/// next page starts right after it whatever was added meanwhile.
public enum ListCursor {
    public static func encode(sortKey: String, id: UUID) -> String {
        Data("\(sortKey)\n\(id.uuidString.lowercased())".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The sort value and id, or nil when the text is not a cursor of this kind.
    public static func decode(_ text: String) -> (sortKey: String, id: UUID)? {
        guard text.count <= 600 else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64), let decoded = String(data: data, encoding: .utf8),
              let newline = decoded.lastIndex(of: "\n"), let id = UUID(uuidString: String(decoded[decoded.index(after: newline)...]))
        else { return nil }
        return (String(decoded[..<newline]), id)
    }
}
