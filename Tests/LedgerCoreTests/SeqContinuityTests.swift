import LedgerTestSupport
import Testing
@testable import LedgerCore

/// The seq rule every layer checks through `SeqContinuity`: each device's seqs go 1, 2, 3, …
/// in order; a gap or a repeat is reported once, with one wording.
@Suite struct SeqContinuityTests {
    static let a = DeviceID(rawValue: 0xA)
    static let b = DeviceID(rawValue: 0xB)

    @Test func contiguousRunsOfSeveralDevicesAreAccepted() {
        var continuity = SeqContinuity(held: [Self.b: 4])
        for (device, seq) in [(Self.a, 1), (Self.a, 2), (Self.b, 5), (Self.a, 3), (Self.b, 6), (Self.b, 7)] as [(DeviceID, UInt64)] {
            #expect(continuity.accept(device: device, seq: seq) == nil)
        }
        #expect(continuity.versionVector == [Self.a: 3, Self.b: 7])
        #expect(continuity.last(of: Self.a) == 3 && continuity.last(of: Self.b) == 7)
    }

    @Test(arguments: [(held: UInt64(0), found: UInt64(2)), (3, 3), (3, 1), (3, 9)])
    func aGapOrARepeatIsReported(held: UInt64, found: UInt64) {
        var continuity = SeqContinuity(held: held == 0 ? [:] : [Self.a: held])
        let gap = continuity.accept(device: Self.a, seq: found)
        #expect(gap == SeqGap(device: Self.a, held: held, found: found))
        let message = gap?.message() ?? ""
        #expect(message.contains("\(Self.a)") && message.contains("seq \(held + 1) must come next"))
        #expect(message.contains(found > held ? "jump from seq \(held) to \(found)" : "seq \(found) comes again"))
        // Named devices read the same way.
        #expect(gap?.message(device: "'phone' (\(Self.a))").hasPrefix("device 'phone' (\(Self.a))'s event") == true)
    }

    @Test func rangesFromSegmentSummariesContinueEachOther() {
        var continuity = SeqContinuity()
        #expect(continuity.accept(device: Self.a, first: 1, last: 10) == nil)
        #expect(continuity.accept(device: Self.b, first: 1, last: 1) == nil)
        #expect(continuity.accept(device: Self.a, first: 11, last: 11) == nil)
        #expect(continuity.accept(device: Self.a, first: 13, last: 20) == SeqGap(device: Self.a, held: 11, found: 13))
        var backwards = SeqContinuity()
        #expect(backwards.accept(device: Self.a, first: 1, last: 0) != nil)
    }

    /// Seeded: a shuffled interleaving of per-device runs is accepted exactly when every device's
    /// seqs stay in order, and the gap named is the first out-of-order event.
    @Test(arguments: 1...50)
    func interleavingsAreAcceptedExactlyWhenInOrder(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed))
        let devices = (1...UInt64.random(in: 1...4, using: &rng)).map { DeviceID(rawValue: $0) }
        var next = Dictionary(uniqueKeysWithValues: devices.map { ($0, UInt64(1)) })
        var events: [EventID] = []
        for _ in 0..<40 {
            let device = devices.randomElement(using: &rng)!
            events.append(EventID(device: device, seq: next[device]!))
            next[device]! += 1
        }
        let broken = seed % 2 == 0
        if broken {
            let i = Int.random(in: 0..<events.count, using: &rng)
            events[i].seq += UInt64.random(in: 1...3, using: &rng)
        }
        var continuity = SeqContinuity()
        var firstGap: SeqGap?
        var held: [DeviceID: UInt64] = [:]
        for id in events {
            let expected = (held[id.device] ?? 0) + 1
            let gap = continuity.accept(id)
            #expect((gap == nil) == (id.seq == expected), "seed \(seed)")
            if firstGap == nil, let gap { firstGap = gap }
            held[id.device] = id.seq
        }
        #expect((firstGap != nil) == broken, "seed \(seed)")
        #expect(continuity.versionVector == held)
    }
}
