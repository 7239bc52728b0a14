import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Random bytes from the kernel's cryptographically secure generator, drawn 256 at a time
/// (`getentropy`'s most in one call) and each handed out once, so that a random id costs
/// a lock instead of two system calls.
///
/// For ids only: keys and secrets come from swift-crypto, so that no secret waits in a
/// buffer of this process before it is used.
final class RandomReserve: Sendable {
    static let shared = RandomReserve()

    /// How many 64-bit words one draw from the kernel fills.
    static let wordsPerDraw = 32

    private struct Reserve {
        var words = [UInt64](repeating: 0, count: RandomReserve.wordsPerDraw)
        /// The next word not handed out yet; `words.count` when all have been.
        var next = RandomReserve.wordsPerDraw
    }

    private let reserve = Mutex(Reserve())

    /// Two random words, never handed out before.
    func nextPair() -> (UInt64, UInt64) {
        reserve.withLock { reserve in
            if reserve.next + 2 > reserve.words.count {
                Self.draw(into: &reserve.words)
                reserve.next = 0
            }
            defer { reserve.next += 2 }
            return (reserve.words[reserve.next], reserve.words[reserve.next + 1])
        }
    }

    /// Fills `words` from the kernel; from the standard library's generator (a system call
    /// a word) if `getentropy` refuses, which it does only where it does not exist.
    private static func draw(into words: inout [UInt64]) {
        let drawn = words.withUnsafeMutableBytes { getentropy($0.baseAddress, $0.count) }
        guard drawn != 0 else { return }
        var generator = SystemRandomNumberGenerator()
        for index in words.indices { words[index] = generator.next() }
    }
}
