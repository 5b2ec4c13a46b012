import LedgerCore
import LedgerSync
import SyncClient
import Testing

/// What `sync` does to an encrypted account's records (Schemas/encryption.md §11 "The client"):
/// a push's records sealed, a pull's opened with each epoch's key, a record it cannot open
/// refused by cause with a sentence, and the digests of the fork check.
@Suite("Sealing a push and opening a pull")
struct SyncSealingTests {
    static func encoded(seed: UInt64) -> EncodedRecords {
        var records = EncodedRecords()
        for bytes in SealedFramesTests.mixedRecords(seed: seed) {
            bytes.withUnsafeBytes { records.append(validated: $0, count: 1) }
        }
        return records
    }

    @Test("a push's 600 records seal as runs, events and names, open byte for byte to the records, and seal again to the same bytes")
    func roundTrip() throws {
        let key = DataKey.random(epoch: 1)
        // The mixed records, then 40 events of one device: some seal as a run.
        var records = Self.encoded(seed: 17)
        for seq in 1...40 as ClosedRange<UInt64> {
            records.append(.stationEdit(StationEdit(id: EventID(device: DeviceID(rawValue: 0x7777), seq: seq),
                                                    hlc: HybridTimestamp(milliseconds: 1_764_000_000_000, counter: 0),
                                                    station: 1_130_105, compDate: .unknown, memo: nil, origin: .user)))
        }
        let sealed = try SyncSealing.seal(records, with: key)
        var kinds: [SealedRecordKind: Int] = [:]
        var events: UInt64 = 0
        sealed.forEach { view in
            kinds[view.kind, default: 0] += 1
            events += view.eventCount
            #expect(view.epoch == 1)
        }
        #expect(kinds[.name] == 120 && events == 520)
        #expect(kinds[.run, default: 0] > 0 && sealed.count < records.count, "consecutive events seal as runs")
        let opened = try SyncSealing.open(sealed, keys: KeyRing(key))
        #expect(opened.count == records.count)
        // A push seals each device's records together (`groupedByDevice`).
        #expect(opened.bytes == records.groupedByDevice().bytes, "opened byte for byte")
        #expect(try SyncSealing.seal(records, with: key).bytes == sealed.bytes, "deterministic")
        let size = SyncSealing.sealedLength()
        var lengths = 0
        records.forEach { lengths += size($0) }
        #expect(lengths >= sealed.bytes.count, "a push's sealed size is bounded before sealing")
        #expect(try SyncSealing.seal(records, with: DataKey.random(epoch: 1)).bytes != sealed.bytes)
    }

    @Test("one device's 10,000 consecutive events seal as runs cut before 60,000 bytes of records")
    func runCuts() throws {
        let device = DeviceID(rawValue: 0x51)
        var records = EncodedRecords()
        let hlc = HybridTimestamp(milliseconds: 1_764_000_000_000, counter: 0)
        for seq in 1...10_000 as ClosedRange<UInt64> {
            let memo = (2_001...2_400).contains(seq) ? String(repeating: "m", count: 200) : nil
            records.append(.stationEdit(StationEdit(id: EventID(device: device, seq: seq), hlc: hlc, station: UInt32(seq), compDate: .unknown,
                                                    memo: memo, origin: .user)))
        }
        // A name between two events ends the run before it.
        records.append(.deviceName(DeviceNameRecord(device: device, hlc: hlc, name: "x")))
        records.append(.stationEdit(StationEdit(id: EventID(device: device, seq: 10_001), hlc: hlc, station: 1, compDate: .unknown, memo: nil,
                                                origin: .user)))
        let sealed = try SyncSealing.seal(records, with: DataKey.random(epoch: 1))
        var runs: [(SealedRecordKind, UInt64, UInt64)] = []
        sealed.forEach { runs.append(($0.kind, $0.firstSeq, $0.seq)) }
        // 1–2000 (38 bytes each: 76,000 bytes of records pass 60,000 first at the 1,579th), …
        #expect(runs.first.map { $0.0 == .run && $0.1 == 1 && $0.2 == 1_578 } == true, "\(runs.prefix(3))")
        #expect(runs.last.map { $0.0 == .event && $0.1 == 10_001 } == true, "a lone event seals as kind 5")
        #expect(runs.dropLast().last.map { $0.0 == .name } == true)
        var next: UInt64 = 1
        for (kind, first, last) in runs where kind != .name {
            #expect(first == next)
            next = last + 1
        }
        #expect(next == 10_002)
    }

    @Test("a push whose devices' events interleave, as a merged log's do, seals each device's events as one run, opened as one frame each")
    func interleavedDevices() throws {
        let key = DataKey.random(epoch: 1)
        let devices = [0x63, 0x61, 0x62].map { DeviceID(rawValue: $0) }
        let hlc = HybridTimestamp(milliseconds: 1_764_000_000_000, counter: 0)
        var records = EncodedRecords()
        var next: [DeviceID: UInt64] = [:]
        // Stretches of 1 to 7 events, the devices taking turns: 1,000 events a device.
        var stretch = 0
        while next.values.reduce(0, +) < 3_000 {
            let device = devices[stretch % 3]
            for _ in 0..<(stretch % 7 + 1) where next[device, default: 0] < 1_000 {
                next[device, default: 0] += 1
                records.append(.stationEdit(StationEdit(id: EventID(device: device, seq: next[device]!), hlc: hlc,
                                                        station: UInt32(stretch % 9_000 + 1), compDate: .unknown, memo: nil, origin: .user)))
            }
            stretch += 1
        }
        let grouped = records.groupedByDevice()
        #expect(grouped.count == records.count && grouped.bytes != records.bytes)
        #expect(grouped.groupedByDevice().bytes == grouped.bytes, "grouped records stay as they are")
        let sealed = try SyncSealing.seal(records, with: key)
        var runs: [(SealedRecordKind, DeviceID, UInt64, UInt64)] = []
        sealed.forEach { runs.append(($0.kind, $0.device, $0.firstSeq, $0.seq)) }
        // 38,000 bytes of records a device: one run each, the devices in the order they came.
        #expect(runs.map(\.0) == [.run, .run, .run] && runs.map(\.1) == devices, "\(runs.map { ($0.0, $0.1, $0.2, $0.3) })")
        #expect(runs.allSatisfy { $0.2 == 1 && $0.3 == 1_000 })
        let opened = try SyncSealing.open(sealed, keys: KeyRing(key), framed: true)
        #expect(opened.bytes == grouped.bytes)
        #expect(opened.frames?.frameCount == 3, "each run's block kept as one frame")
        let size = SyncSealing.sealedLength()
        var lengths = 0
        records.forEach { lengths += size($0) }
        #expect(lengths >= sealed.bytes.count, "a push's sealed size is bounded before sealing")
        #expect(lengths < records.bytes.count * 2, "an event that continues its device's seqs is counted as joining its run")
    }

    @Test("a page of more than 1 MiB is opened in parts on every core, joined in order, and kept as frames that read back to it")
    func opensInParts() throws {
        let key = DataKey.random(epoch: 1)
        var records = EncodedRecords()
        let hlc = HybridTimestamp(milliseconds: 1_764_000_000_000, counter: 0)
        for seq in 1...60_000 as ClosedRange<UInt64> {
            for device in [DeviceID(rawValue: 0x51), DeviceID(rawValue: 0x52)] where seq % 7 != 0 || device.rawValue == 0x51 {
                records.append(.stationEdit(StationEdit(id: EventID(device: device, seq: device.rawValue == 0x51 ? seq : seq - seq / 7),
                                                        hlc: hlc, station: UInt32(seq % 9_000 + 1), compDate: .day(2020, 1, 1 + Int(seq % 28)),
                                                        memo: seq % 11 == 0 ? "メモ \(seq)" : nil, origin: .user)))
            }
        }
        let sealed = try SyncSealing.seal(records, with: key)
        #expect(sealed.bytes.count > 1 << 20 && sealed.split(into: 2).count == 2, "\(sealed.bytes.count) bytes")
        let opened = try SyncSealing.open(sealed, keys: KeyRing(key), framed: true)
        let grouped = records.groupedByDevice()
        #expect(opened.bytes == grouped.bytes && opened.count == records.count)
        let frames = try #require(opened.frames)
        var read = EncodedRecords()
        _ = try frames.bytes.withUnsafeBytes { try RecordFrames.Reader().forEachRecord(in: $0) { read.append($0) } }
        #expect(read.bytes == grouped.bytes, "the frames kept read back to the records")
        #expect(frames.frameCount >= sealed.count / 2, "a run's block kept as a frame of its own")
        // A record that does not open in the second part is the one named.
        let parts = sealed.split(into: 2)
        var bytes = parts[0].bytes + parts[1].bytes
        bytes[parts[0].bytes.count + 60] ^= 1
        var damaged = SealedRecords()
        bytes.withUnsafeBytes { damaged.append(validated: $0, count: sealed.count) }
        var second: (DeviceID, UInt64)?
        parts[1].forEach { view in if second == nil { second = (view.device, view.seq) } }
        do {
            _ = try SyncSealing.open(damaged, keys: KeyRing(key))
            Issue.record("a damaged record opened")
        } catch {
            #expect(error.cause == .unopenable(device: second!.0, seq: second!.1, reason: .unauthentic))
        }
    }

    @Test("a pull holding records of 3 epochs opens with a ring that unlocked the older keys from the chain")
    func opensAcrossEpochs() throws {
        let keys = (1...3).map { DataKey.random(epoch: UInt32($0)) }
        let chain: [UInt32: [UInt8]] = [
            1: KeyWrap.wrap(keys[0], under: keys[1].chainKey, purpose: .chain),
            2: KeyWrap.wrap(keys[1], under: keys[2].chainKey, purpose: .chain),
        ]
        let records = Self.encoded(seed: 23)
        // The pull's records in three runs, each sealed under its epoch's key.
        var pull = SealedRecords()
        var pushed: [UInt8] = []
        for (part, key) in zip(records.pages(records: 200, bytes: .max, size: { _ in 1 }), keys) {
            let sealed = try SyncSealing.seal(part, with: key)
            sealed.bytes.withUnsafeBytes { pull.append(validated: $0, count: sealed.count) }
            // Each push seals its devices' records together.
            pushed += part.groupedByDevice().bytes
        }
        var ring = KeyRing(keys[2])
        do {
            _ = try SyncSealing.open(pull, keys: ring)
            Issue.record("records of epoch 1 opened without its key")
        } catch {
            #expect(error.cause == .missingKey(epoch: 1))
            #expect(error.message.contains("this device lacks the key of epoch 1"))
        }
        try ring.unlockChain(chain)
        #expect(try SyncSealing.open(pull, keys: ring).bytes == pushed)
    }

    @Test("a record of an epoch the ring lacks is refused with a sentence telling how to get the key")
    func missingKey() throws {
        let records = Self.encoded(seed: 5)
        let sealed = try SyncSealing.seal(records, with: DataKey.random(epoch: 4))
        do {
            _ = try SyncSealing.open(sealed, keys: KeyRing(DataKey.random(epoch: 3)))
            Issue.record("a record of epoch 4 opened with a ring up to epoch 3")
        } catch {
            #expect(error.cause == .missingKey(epoch: 4))
            #expect(error.message == "records on the server are sealed with a key this device does not hold: the account's key changed since this device last had it (epoch 4; this device holds up to 3); get the key with a link from a device that has it (`oritsubushi device link` there), or enter the recovery kit, then sync again")
            #expect(error.ledgerError.category == .permission)
        }
    }

    @Test("a record sealed under another key of its epoch, or changed, is refused naming its device and seq")
    func unauthentic() throws {
        let records = Self.encoded(seed: 9)
        let key = DataKey.random(epoch: 2)
        let sealed = try SyncSealing.seal(records, with: key)
        do {
            _ = try SyncSealing.open(sealed, keys: KeyRing(DataKey.random(epoch: 2)))
            Issue.record("records opened under another key")
        } catch {
            guard case .unopenable(let device, let seq, let reason) = error.cause else {
                Issue.record("refused for \(error.cause)")
                return
            }
            #expect(reason == .unauthentic)
            let first = sealed.records[0]
            #expect(device == first.device && seq == first.seq)
            #expect(error.message.contains("device \(first.device)"))
            #expect(error.message.contains("fails its authentication"))
        }
        // One changed ciphertext byte in the 4th record (an event): that record is named.
        var damaged = SealedRecords()
        var index = 0
        var target: SealedRecord?
        sealed.forEach { view in
            var record = SealedRecord(view)
            if index == 3 {
                record.ciphertext[5] ^= 1
                target = record
            }
            damaged.append(record)
            index += 1
        }
        let changed = try #require(target)
        #expect(changed.kind == .event)
        do {
            _ = try SyncSealing.open(damaged, keys: KeyRing(key))
            Issue.record("a changed record opened")
        } catch {
            #expect(error.cause == .unopenable(device: changed.device, seq: changed.seq, reason: .unauthentic))
            #expect(error.message.hasPrefix("the event of device \(changed.device) seq \(changed.seq) (key epoch 2) does not open"))
        }
    }

    @Test("a device's own event sealed under the server's epoch has the digest of the server's sealed copy, and a changed one does not")
    func forkDigests() throws {
        let key = DataKey.random(epoch: 7)
        let records = Self.encoded(seed: 31)
        let sealed = try SyncSealing.seal(records, with: key)
        var serverDigests: [EventDigest.Value] = []
        sealed.forEach { serverDigests.append(SyncSealing.digest(ofSealed: $0)) }
        #expect(sealed.records.map(SyncSealing.digest(ofSealed:)) == serverDigests)
        var index = 0
        // A push seals each device's records together (`groupedByDevice`), in the same order.
        try records.groupedByDevice().forEach { (view) throws in
            #expect(try SyncSealing.digest(sealing: view, with: key) == serverDigests[index])
            index += 1
        }
        // The same (device, seq) with another memo: another digest (a fork).
        let edit = try #require(records.records.first { if case .stationEdit = $0 { true } else { false } })
        guard case .stationEdit(var changed) = edit else { return }
        changed.memo = (changed.memo ?? "") + "!"
        var other = EncodedRecords()
        other.append(.stationEdit(changed))
        let position = try #require(records.records.firstIndex(of: edit))
        try other.forEach { (view) throws in
            #expect(try SyncSealing.digest(sealing: view, with: key) != serverDigests[position])
        }
    }
}
