/// A small, fast, seeded generator (xoshiro256**, seeded through SplitMix64), so that the same
/// seed gives the same history on every machine and Swift version; the standard library's
/// generators promise neither.
package struct SeededRandom: RandomNumberGenerator, Sendable {
    private var s0, s1, s2, s3: UInt64

    package init(seed: UInt64) {
        var x = seed
        func splitMix() -> UInt64 {
            x &+= 0x9E37_79B9_7F4A_7C15
            var z = x
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        s0 = splitMix(); s1 = splitMix(); s2 = splitMix(); s3 = splitMix()
    }

    @inline(__always)
    package mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3
        s2 ^= t
        s3 = s3 << 45 | s3 >> 19
        return result
    }

    /// A uniform integer in `0..<bound` (bound > 0), by multiply-shift; the tiny bias is
    /// irrelevant for synthetic data and keeps the generator branch-free.
    @inline(__always)
    package mutating func below(_ bound: Int) -> Int {
        Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// `true` with probability `permille / 1000`.
    @inline(__always)
    package mutating func chance(permille: Int) -> Bool { below(1000) < permille }
}
