#if canImport(Glibc)
import Glibc
#endif
import LedgerCore
import LedgerTestSupport
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

    @Test("a forced mode decides whether two threads run, over the CPU count", arguments: SideBySide.Mode.allCases)
    func forcedMode(mode: SideBySide.Mode) {
        let worthwhile = SideBySide.$forced.withValue(mode) { SideBySide.isWorthwhile }
        switch mode {
        case .always: #expect(worthwhile)
        case .never: #expect(!worthwhile)
        case .automatic: #expect(worthwhile == (sysconf(Int32(_SC_NPROCESSORS_ONLN)) >= 2))
        }
        #expect(SideBySide.forced == nil, "the mode is forced only for the work it wraps")
    }

    @Test("a handed value is changed in place by the background and taken back whole")
    func handedValue() {
        let handed = Handed([Int]())
        let (taken, _) = SideBySide.run(
            background: { () -> ([Int], Bool) in
                for i in 0..<1_000 { handed.value!.append(i) }
                let whole = handed.value.take()!
                // (The box was sent to the background: only the background may look into it.)
                return (whole, handed.value == nil)
            },
            foreground: { () })
        #expect(taken.0 == Array(0..<1_000))
        #expect(taken.1, "the box is empty once its value is taken")
    }

    @Test("a ledger's reading copy, read on the other thread, holds what the ledger holds", arguments: [1, 3])
    func readingCopy(segments: Int) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let ledger = try Ledger.create(directory: dir.sub("l"), deviceName: "a", clock: FixedClock(milliseconds: 1_700_000_000_000))
        defer { ledger.close() }
        ledger.rollThreshold = 1 << 12
        for batch in 0..<(segments * 40) {
            try ledger.appendLocal((1...20).map { StationEditDraft(station: UInt32(batch * 20 + $0), compDate: .year(2013)) })
        }
        #expect(ledger.segments.count >= segments)
        let copy = ledger.readingCopy()
        let (theirs, mine) = SideBySide.run(
            background: { Result { try copy.allRecords() } },
            foreground: { Result { try ledger.allRecords() } })
        #expect(try theirs.get() == mine.get())
        #expect(try mine.get().count == segments * 40 * 20 + 1)  // and the device's name
    }
}
