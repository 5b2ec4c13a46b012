#if canImport(Glibc)
import Glibc
#endif
import LedgerCore
import Testing

@Suite("SideBySide: two pieces of work at once")
struct SideBySideTests {
    @Test("both results come back; the background work ran on another thread and in full", arguments: [0, 1, 100_000])
    func bothResults(count: Int) {
        let caller = pthread_self()
        let (background, foreground) = SideBySide.run(
            background: { () -> (Int, Bool) in
                ((0..<count).reduce(0, &+), pthread_equal(pthread_self(), caller) == 0)
            },
            foreground: { () -> (Int, Bool) in
                ((0..<count).reduce(0) { $0 &+ $1 &* 2 }, pthread_equal(pthread_self(), caller) != 0)
            })
        #expect(background.0 == count * max(count - 1, 0) / 2)
        #expect(foreground.0 == count * max(count - 1, 0))
        #expect(background.1, "the background closure ran on a thread of its own")
        #expect(foreground.1, "the foreground closure ran on the caller's thread")
    }

    @Test("a handed value is changed in place by the background and taken back whole")
    func handedValue() {
        let handed = Handed([Int]())
        let (taken, _) = SideBySide.run(
            background: { () -> [Int] in
                for i in 0..<1_000 { handed.value!.append(i) }
                return handed.value.take()!
            },
            foreground: { () })
        #expect(taken == Array(0..<1_000))
        #expect(handed.value == nil)
    }
}
