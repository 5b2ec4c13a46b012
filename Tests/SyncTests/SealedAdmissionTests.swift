import LedgerCore
import LedgerSync
import Testing

/// The admission of sealed records into an encrypted account, without the key
/// (Schemas/encryption.md §10): each check, its refusal by cause, and what an accepted batch
/// appends.
@Suite("Admitting sealed records without the key")
struct SealedAdmissionTests {
    static let epoch1 = DataKey.random(epoch: 1)
    static let epoch2 = DataKey.random(epoch: 2)
    static let phone = DeviceID(rawValue: 0xa1), laptop = DeviceID(rawValue: 0xb2)

    static func edit(_ device: DeviceID, _ seq: UInt64, memo: String = "", key: DataKey = epoch2) throws -> SealedRecord {
        let edit = StationEdit(id: EventID(device: device, seq: seq), hlc: HybridTimestamp(milliseconds: 1_764_000_000_000 + Int64(seq), counter: 0),
                               station: 1_130_101, compDate: .day(2024, 5, 1), memo: memo.isEmpty ? nil : memo, origin: .user)
        return try RecordSealer.seal(RecordEncoder.bytes(of: .stationEdit(edit)), with: key)
    }

    static func name(_ device: DeviceID, _ text: String, key: DataKey = epoch2) throws -> SealedRecord {
        let name = DeviceNameRecord(device: device, hlc: HybridTimestamp(milliseconds: 1_764_000_000_000, counter: 0), name: text)
        return try RecordSealer.seal(RecordEncoder.bytes(of: .deviceName(name)), with: key)
    }

    /// Calls `body` with a view of each record's stored form, in order.
    static func views(_ records: [SealedRecord], _ body: (SealedRecordView) throws -> Void) throws {
        let stream = records.flatMap(\.recordBytes)
        try stream.withUnsafeBytes { try SealedRecordStream.forEach(in: $0, body) }
    }

    static func print(_ record: SealedRecord) -> UInt64 {
        record.recordBytes.withUnsafeBytes { RecordFingerprint.of($0) }
    }

    /// Admits `batch` into an account at epoch 2 holding `held` (its stored copies `stored`).
    static func admit(_ batch: [SealedRecord], held: [DeviceID: UInt64] = [:], stored: [SealedRecord] = [],
                      names: [SealedRecord] = []) throws -> SealedAdmission.Admitted {
        var admission = SealedAdmission(into: .init(epoch: 2, held: held, names: Set(names.map(print))))
        try views(batch) { try admission.receive($0) }
        let wanted = Set(admission.heldIDs)
        try views(stored.filter { wanted.contains(EventID(device: $0.device, seq: $0.seq)) }) { try admission.checkStored($0) }
        return try admission.admit()
    }

    static func cause(_ body: () throws -> Void) -> LedgerError.Cause? {
        do { try body() } catch let error as LedgerError { return error.cause } catch { return nil }
        return nil
    }

    @Test("a first batch appends its events in (device, seq) order and each distinct name once")
    func firstBatch() throws {
        let batch = [try Self.edit(Self.laptop, 1), try Self.edit(Self.phone, 2), try Self.name(Self.phone, "Pixel"),
                     try Self.edit(Self.phone, 1), try Self.name(Self.phone, "Pixel"), try Self.name(Self.phone, "Pixel 8")]
        let admitted = try Self.admit(batch)
        #expect(admitted.events.map { "\($0.device):\($0.seq)" } == ["\(Self.phone):1", "\(Self.phone):2", "\(Self.laptop):1"])
        #expect(admitted.names == [batch[2], batch[5]])
        #expect(admitted.duplicates == 0)
    }

    @Test("a held event received again: a duplicate when identical or sealed under another epoch, a fork when it differs under the same one")
    func heldCopies() throws {
        let stored = [try Self.edit(Self.phone, 1, memo: "held"), try Self.edit(Self.phone, 2)]
        let held: [DeviceID: UInt64] = [Self.phone: 2]
        #expect(try Self.admit([stored[0], stored[1], stored[0]], held: held, stored: stored).duplicates == 3)
        // Re-sealed under epoch 1 (the server cannot compare contents across epochs): kept as stored.
        let resealed = try Self.edit(Self.phone, 1, memo: "other", key: Self.epoch1)
        let admitted = try Self.admit([resealed, try Self.edit(Self.phone, 3)], held: held, stored: stored)
        #expect(admitted.duplicates == 1 && admitted.events.count == 1)
        let forked = try Self.edit(Self.phone, 1, memo: "forked")
        #expect(Self.cause { _ = try Self.admit([forked], held: held, stored: stored) } == .differingEvent(EventID(device: Self.phone, seq: 1)))
        #expect(Self.cause { _ = try Self.admit([stored[1], try Self.edit(Self.phone, 2, memo: "two")], held: held) }
                == .differingEvent(EventID(device: Self.phone, seq: 2)), "two received copies of one held id differ")
    }

    @Test("new events must continue each device's seqs; one id twice is one event, or refused when the copies differ")
    func continuity() throws {
        let held: [DeviceID: UInt64] = [Self.phone: 4]
        #expect(Self.cause { _ = try Self.admit([try Self.edit(Self.phone, 6)], held: held) }
                == .seqGap(SeqGap(device: Self.phone, held: 4, found: 6)))
        #expect(Self.cause { _ = try Self.admit([try Self.edit(Self.laptop, 2)]) } == .seqGap(SeqGap(device: Self.laptop, held: 0, found: 2)))
        let five = try Self.edit(Self.phone, 5)
        #expect(try Self.admit([five, five], held: held).events == [five])
        #expect(Self.cause { _ = try Self.admit([five, try Self.edit(Self.phone, 5, memo: "x")], held: held) }
                == .differingWithin(EventID(device: Self.phone, seq: 5)))
    }

    @Test("after a rotation a new event or name under the older epoch is stale; an epoch the account does not have is refused at once")
    func epochs() throws {
        #expect(Self.cause { _ = try Self.admit([try Self.edit(Self.phone, 1, key: Self.epoch1)]) } == .staleEpoch(current: 2, found: 1))
        #expect(Self.cause { _ = try Self.admit([try Self.name(Self.phone, "old", key: Self.epoch1)]) } == .staleEpoch(current: 2, found: 1))
        let epoch3 = DataKey.random(epoch: 3)
        var admission = SealedAdmission(into: .init(epoch: 2, held: [Self.phone: 9], names: []))
        // Refused as it is received, even a held copy, before anything else is compared.
        let early = Self.cause { try Self.views([try Self.edit(Self.phone, 1, key: epoch3)]) { try admission.receive($0) } }
        #expect(early == .unknownEpoch(current: 2, found: 3))
        let stale = try Self.edit(Self.phone, 1, key: Self.epoch1)
        let error = #expect(throws: LedgerError.self) { _ = try Self.admit([stale]) }
        #expect(error?.category == .conflict)
        #expect(error.map { $0.message.contains("key epoch 1") && $0.message.contains("link") && $0.message.contains("recovery kit") } == true)
    }

    @Test("a name the account holds is skipped; a new one is appended")
    func heldNames() throws {
        let held = try Self.name(Self.phone, "Pixel")
        let renamed = try Self.name(Self.phone, "Pixel (2)")
        let admitted = try Self.admit([held, renamed], names: [held])
        #expect(admitted.names == [renamed])
        #expect(admitted.events.isEmpty && admitted.duplicates == 0)
    }
}
