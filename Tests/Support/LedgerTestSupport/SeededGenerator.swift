import LedgerGenerator

/// The one seeded generator of the tests, so that every property test, crash schedule and load
/// run can be replayed from its seed. It wraps the product's `SeededRandom` (LedgerGenerator,
/// xoshiro256**) rather than keeping a second algorithm; a wrapper, not a typealias, so that test
/// files need not import LedgerGenerator to call `next()`.
package struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var random: SeededRandom

    package init(seed: UInt64) { random = SeededRandom(seed: seed) }

    package mutating func next() -> UInt64 { random.next() }
}
