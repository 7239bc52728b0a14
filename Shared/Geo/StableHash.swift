/// Hashes that come out the same in every process and on every platform, unlike `Hasher`,
/// which is seeded afresh at each launch. Not cryptographic: nothing secret rests on them.
public enum StableHash {
    /// FNV-1a, 64-bit, of a sequence of bytes.
    public static func fnv1a64<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        bytes.reduce(0xcbf2_9ce4_8422_2325) { hash, byte in (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    }

    /// SplitMix64's output function: a bijection that spreads every input bit over every
    /// output bit, so that neighbouring inputs give unrelated outputs.
    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// A number in 0..<1 from the high 53 bits of a hash, every such number equally likely.
    static func unitInterval(_ value: UInt64) -> Double {
        Double(value >> 11) / 9_007_199_254_740_992
    }
}
