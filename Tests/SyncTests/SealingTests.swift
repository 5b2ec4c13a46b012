import Crypto
import LedgerCore
import LedgerGenerator
import LedgerSync
import Testing

/// The properties of end-to-end encryption's primitives beyond the fixed vectors of
/// Conformance/encryption.jsonl (Schemas/encryption.md): over many generated records and random
/// keys, sealing is deterministic and opens to the record, and any change is refused.
@Suite("Sealing records, wrapping keys and recovery kits")
struct SealingTests {
    static func generatedRecords(count: Int, seed: UInt64) -> [[UInt8]] {
        var random = SeededRandom(seed: seed)
        let device = DeviceID(rawValue: random.next() | 1)
        return (0..<count).map { index in
            let memo = random.next() % 3 == 0 ? nil : String(repeating: "駅", count: Int(random.next() % 200))
            let edit = StationEdit(id: EventID(device: device, seq: UInt64(index + 1)),
                                   hlc: HybridTimestamp(milliseconds: 1_700_000_000_000 + Int64(index), counter: 0),
                                   station: UInt32(1 + random.next() % 2_000_000), compDate: memo == nil ? .unknown : nil,
                                   memo: memo, origin: .user)
            return RecordEncoder.bytes(of: .stationEdit(edit))
        }
    }

    @Test("every sealed record opens to itself, seals to the same bytes again, and is padded to 32")
    func roundTrip() throws {
        let key = DataKey.random(epoch: 3)
        for record in Self.generatedRecords(count: 300, seed: 45) {
            let sealed = try RecordSealer.seal(record, with: key)
            #expect(try RecordSealer.open(sealed, with: key) == record)
            #expect(try RecordSealer.seal(record, with: key) == sealed, "deterministic: the same bytes from any device")
            #expect((sealed.ciphertext.count - 16) % 32 == 0 && sealed.ciphertext.count - 16 >= record.count)
            #expect(sealed.epoch == 3 && sealed.kind == .event)
        }
    }

    @Test("two events never share a nonce, and another key gives other bytes")
    func distinctNonces() throws {
        let key = DataKey.random(epoch: 1), other = DataKey.random(epoch: 1)
        let records = Self.generatedRecords(count: 500, seed: 7)
        let nonces = try records.map { try RecordSealer.seal($0, with: key).nonce }
        #expect(Set(nonces).count == records.count)
        #expect(try RecordSealer.seal(records[0], with: other).nonce != nonces[0])
        #expect(key != other)
    }

    @Test("each changed byte of a sealed record is refused as unauthentic")
    func everyByteMatters() throws {
        let key = DataKey.random(epoch: 1)
        let sealed = try RecordSealer.seal(Self.generatedRecords(count: 1, seed: 9)[0], with: key)
        for index in sealed.ciphertext.indices {
            var changed = sealed
            changed.ciphertext[index] ^= 0x01
            #expect(throws: SealingError.unauthentic) { try RecordSealer.open(changed, with: key) }
        }
        for index in sealed.nonce.indices {
            var changed = sealed
            changed.nonce[index] ^= 0x80
            #expect(throws: SealingError.unauthentic) { try RecordSealer.open(changed, with: key) }
        }
    }

    @Test("a record the format refuses is not sealed")
    func refusesBadRecords() {
        let key = DataKey.random(epoch: 1)
        var record = Self.generatedRecords(count: 1, seed: 11)[0]
        record[0] = 42
        #expect(throws: SealingError.self) { try RecordSealer.seal(record, with: key) }
        #expect(throws: SealingError.self) { try RecordSealer.seal(record + record, with: key) }
        #expect(throws: SealingError.self) { try RecordSealer.seal([], with: key) }
    }

    @Test("a wrapped key unwraps only under its wrapping key and purpose; random nonces differ")
    func keyWrap() throws {
        let key = DataKey.random(epoch: 9)
        let secret = (0..<32).map { _ in UInt8.random(in: 0...255) }
        let linkKey = try KeyWrap.linkKey(secret: secret)
        let first = KeyWrap.wrap(key, under: linkKey, purpose: .link)
        let second = KeyWrap.wrap(key, under: linkKey, purpose: .link)
        #expect(first.count == 64 && first != second)
        #expect(try KeyWrap.unwrap(first, under: linkKey, purpose: .link) == key)
        #expect(throws: SealingError.unauthentic) { try KeyWrap.unwrap(first, under: linkKey, purpose: .device) }
        var otherSecret = secret
        otherSecret[0] ^= 1
        #expect(throws: SealingError.unauthentic) { try KeyWrap.unwrap(first, under: KeyWrap.linkKey(secret: otherSecret), purpose: .link) }
        #expect(throws: SealingError.length) { try KeyWrap.unwrap(Array(first.prefix(63)), under: linkKey, purpose: .link) }
        #expect(throws: SealingError.length) { try KeyWrap.linkKey(secret: Array(secret.prefix(31))) }
    }

    @Test("a kit reads back to its key; any single mistyped character is caught")
    func recoveryKit() throws {
        for _ in 0..<20 {
            let key = DataKey.random(epoch: UInt32.random(in: 1...1_000))
            let kit = RecoveryKit.text(for: key)
            #expect(RecoveryKit.words(of: kit).count == 16 && RecoveryKit.words(of: kit).allSatisfy { $0.count == 4 })
            #expect(try RecoveryKit.key(from: kit) == key)
            var characters = Array(kit)
            let position = Int.random(in: 0..<characters.count)
            guard characters[position] != " " else { continue }
            characters[position] = characters[position] == "Z" ? "Y" : "Z"
            #expect(throws: SealingError.checksum) { try RecoveryKit.key(from: String(characters)) }
        }
        #expect(DataKey.random(epoch: 1).fingerprint.count == 9)
    }
}
