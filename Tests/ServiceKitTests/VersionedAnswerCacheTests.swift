import Foundation
import ServiceKit
import Testing

@Suite("answers kept under a read model's version token")
struct VersionedAnswerCacheTests {
    private let page: [UInt8] = Array("{\"items\":[]}".utf8)

    @Test("an answer is found under its own token only; storing under another token drops the old token's answers")
    func versions() {
        let cache = VersionedAnswerCache<String>(capacity: 8, largestAnswer: 100, byteBudget: 1_000)
        #expect(cache.answer(for: "milk", version: 7) == nil)
        cache.store(page, for: "milk", version: 7)
        cache.store([1], for: "bread", version: 7)
        #expect(cache.answer(for: "milk", version: 7) == page)
        #expect(cache.answer(for: "bread", version: 7) == [1])
        #expect(cache.answer(for: "milk", version: -7) == nil)
        #expect(cache.answer(for: "cheese", version: 7) == nil)

        cache.store([2], for: "bread", version: 8)
        #expect(cache.count == 1)
        #expect(cache.answer(for: "milk", version: 7) == nil && cache.answer(for: "milk", version: 8) == nil)
        #expect(cache.answer(for: "bread", version: 8) == [2])
    }

    @Test("a full cache starts over; an answer above the size limit, or any answer at capacity 0, is not kept")
    func bounds() {
        let cache = VersionedAnswerCache<Int>(capacity: 3, largestAnswer: 4, byteBudget: 100)
        for key in 0..<3 { cache.store([UInt8(key)], for: key, version: 1) }
        #expect(cache.count == 3)
        cache.store([9], for: 3, version: 1)
        #expect(cache.count == 1 && cache.answer(for: 3, version: 1) == [9] && cache.answer(for: 0, version: 1) == nil)
        cache.store([1, 2, 3, 4, 5], for: 4, version: 1)
        #expect(cache.answer(for: 4, version: 1) == nil)
        cache.store([1, 2, 3, 4], for: 4, version: 1)
        #expect(cache.answer(for: 4, version: 1) == [1, 2, 3, 4])

        let off = VersionedAnswerCache<Int>(capacity: 0, largestAnswer: 4, byteBudget: 100)
        off.store([1], for: 1, version: 1)
        #expect(off.answer(for: 1, version: 1) == nil && off.count == 0)
    }

    @Test("an answer stored with a span of time is found only at a time inside it")
    func timed() {
        let cache = VersionedAnswerCache<String>(capacity: 8, largestAnswer: 100, byteBudget: 1_000)
        let start = Date(timeIntervalSince1970: 1_000)
        cache.store(page, for: "feed", version: 1, valid: start..<start.addingTimeInterval(60))
        #expect(cache.answer(for: "feed", version: 1, at: start) == page)
        #expect(cache.answer(for: "feed", version: 1, at: start.addingTimeInterval(59.9)) == page)
        #expect(cache.answer(for: "feed", version: 1, at: start.addingTimeInterval(60)) == nil)
        #expect(cache.answer(for: "feed", version: 1, at: start.addingTimeInterval(-0.1)) == nil)
        #expect(cache.answer(for: "feed", version: 1) == nil)
    }

    @Test("the answers kept never add up to more than the byte budget: the cache starts over instead; a key stored again counts once")
    func budget() {
        let cache = VersionedAnswerCache<Int>(capacity: 100, largestAnswer: 40, byteBudget: 100)
        for key in 0..<3 { cache.store(Array(repeating: 1, count: 30), for: key, version: 1) }
        #expect(cache.count == 3 && cache.bytes == 90)
        cache.store(Array(repeating: 2, count: 30), for: 1, version: 1)
        #expect(cache.count == 3 && cache.bytes == 90 && cache.answer(for: 1, version: 1)?.first == 2)
        cache.store(Array(repeating: 3, count: 20), for: 3, version: 1)
        #expect(cache.count == 1 && cache.bytes == 20 && cache.answer(for: 0, version: 1) == nil)
        cache.store([4], for: 4, version: 2)
        #expect(cache.count == 1 && cache.bytes == 1)
        let small = VersionedAnswerCache<Int>(capacity: 10, largestAnswer: 50, byteBudget: 10)
        small.store(Array(repeating: 5, count: 11), for: 5, version: 1)
        #expect(small.count == 0 && small.bytes == 0)
    }
}
