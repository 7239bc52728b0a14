import EventLog
import Foundation
import Testing

@Suite("random ids (UUID.random)")
struct RandomIDTests {
    private static func bytes(_ id: UUID) -> [UInt8] { withUnsafeBytes(of: id.uuid) { Array($0) } }

    @Test("every id is a version 4 UUID of the RFC's variant, and none repeats in 20,000")
    func versionAndVariant() {
        let ids = (0..<20_000).map { _ in UUID.random() }
        #expect(Set(ids).count == ids.count)
        for id in ids.prefix(1_000) {
            let text = id.uuidString
            #expect(text[text.index(text.startIndex, offsetBy: 14)] == "4", "\(text)")
            #expect("89AB".contains(text[text.index(text.startIndex, offsetBy: 19)]), "\(text)")
            #expect(UUID(uuidString: text) == id)
        }
    }

    @Test("ids made at once by eight tasks, across many draws from the kernel, never repeat, not even in one half")
    func concurrentIdsNeverRepeat() async {
        let ids = await withTaskGroup(of: [UUID].self) { group in
            for _ in 0..<8 { group.addTask { (0..<4_000).map { _ in UUID.random() } } }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(ids.count == 32_000)
        #expect(Set(ids).count == ids.count)
        // A word handed out twice would repeat a half of an id even where the other half differs.
        let halves = ids.flatMap { id in withUnsafeBytes(of: id.uuid) { [Array($0.prefix(8)), Array($0.suffix(8))] } }
        #expect(Set(halves).count == halves.count)
    }

    @Test("each of the 122 random bits is sometimes set and sometimes clear")
    func everyRandomBitVaries() {
        var seenSet = [UInt8](repeating: 0, count: 16), seenClear = [UInt8](repeating: 0, count: 16)
        for _ in 0..<2_000 {
            for (index, byte) in Self.bytes(UUID.random()).enumerated() {
                seenSet[index] |= byte
                seenClear[index] |= ~byte
            }
        }
        // Fixed: the version's four bits (byte 6, high nibble) and the variant's two (byte 8, top).
        var fixed = [UInt8](repeating: 0, count: 16)
        fixed[6] = 0xF0
        fixed[8] = 0xC0
        for index in 0..<16 {
            #expect(seenSet[index] | fixed[index] == 0xFF, "byte \(index): a bit never set")
            #expect(seenClear[index] | fixed[index] == 0xFF, "byte \(index): a bit never clear")
        }
    }
}
