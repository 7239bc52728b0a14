import Codecs
import Foundation
import Testing

@Suite("hex")
struct HexTests {
    @Test("lowercase hex writes every byte as printf's %02x does, and nothing for no bytes")
    func matchesPrintf() {
        let every = (0...255).map(UInt8.init)
        #expect(every.lowercaseHex == every.map { String(format: "%02x", $0) }.joined())
        #expect([UInt8]().lowercaseHex == "")
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 1...64)).map { _ in UInt8.random(in: 0...255) }
            #expect(bytes.lowercaseHex == bytes.map { String(format: "%02x", $0) }.joined())
        }
    }
}
