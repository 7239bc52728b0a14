import Codecs

/// Just enough of `multipart/form-data` (RFC 7578) to take an uploaded file out of a body.
public enum MultipartBody {
    /// The `boundary` parameter of a `Content-Type` header, unquoted; nil when absent or unusable.
    public static func boundary(of contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingWhitespace() }
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            var value = pair[1]
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            return (1...70).contains(value.count) ? value : nil
        }
        return nil
    }

    /// The content of the first part that carries a `filename`, or failing that the first
    /// part named `file`; nil when there is none or the body is not well formed.
    public static func firstFilePart(of body: [UInt8], boundary: String) -> [UInt8]? {
        let delimiter = Array("--\(boundary)".utf8)
        var parts: [(headers: String, content: ArraySlice<UInt8>)] = []
        guard var start = find(delimiter, in: body, from: 0) else { return nil }
        while true {
            var cursor = start + delimiter.count
            // "--" after a delimiter closes the body.
            if body.count >= cursor + 2, body[cursor] == 0x2D, body[cursor + 1] == 0x2D { break }
            guard let lineEnd = find([0x0D, 0x0A], in: body, from: cursor) else { return nil }
            cursor = lineEnd + 2
            guard let headerEnd = find([0x0D, 0x0A, 0x0D, 0x0A], in: body, from: cursor),
                let next = find([0x0D, 0x0A] + delimiter, in: body, from: headerEnd + 4)
            else { return nil }
            parts.append((String(decoding: body[cursor..<headerEnd], as: UTF8.self).lowercased(), body[(headerEnd + 4)..<next]))
            start = next + 2
        }
        let chosen = parts.first { $0.headers.contains("filename=") } ?? parts.first { $0.headers.contains("name=\"file\"") }
        return chosen.map { Array($0.content) }
    }

    /// The index where `needle` first occurs in `haystack` at or after `from`.
    static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        var index = from
        while index <= haystack.count - needle.count {
            if haystack[index] == needle[0], haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
