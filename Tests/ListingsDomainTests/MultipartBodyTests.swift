import Foundation
import ListingsDomain
import Testing

@Suite("multipart uploads")
struct MultipartBodyTests {
    /// Stands in for a picture: multipart parsing never looks inside the file.
    static let file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("not really a picture\r\n--".utf8)

    @Test("the file part of a multipart body")
    func multipart() throws {
        let boundary = "----commons42"
        let body =
            Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\nmy chair\r\n".utf8)
            + Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.png\"\r\nContent-Type: image/png\r\n\r\n".utf8)
            + Self.file + Array("\r\n--\(boundary)--\r\n".utf8)
        #expect(MultipartBody.boundary(of: "multipart/form-data; boundary=\"\(boundary)\"") == boundary)
        #expect(MultipartBody.firstFilePart(of: body, boundary: boundary) == Self.file)
        #expect(MultipartBody.firstFilePart(of: Array(body.prefix(40)), boundary: boundary) == nil)
    }
}
