import LedgerCore
import LedgerSync

/// Every stored event's `EventDigest` by (device, seq), for the fork check of a pull
/// (Schemas/merge.md §10) without reading segments: built in the one scan at open, extended by
/// pushes. 16 bytes an event (1 M events: 16 MiB), held only while the user's ledger is open.
struct DigestIndex {
    private struct Digest: Equatable { var high: UInt64; var low: UInt64 }
    private var devices: [DeviceID: ContiguousArray<Digest>] = [:]

    /// Records the digest of `device`'s next event (seqs are contiguous from 1).
    mutating func append(device: DeviceID, seq: UInt64, hex: String) {
        guard seq == UInt64(devices[device]?.count ?? 0) + 1, let digest = Self.parse(hex) else { return }
        devices[device, default: []].append(digest)
    }

    /// The digest of the event at (device, seq), nil when not held.
    func digest(_ device: DeviceID, _ seq: UInt64) -> String? {
        guard seq >= 1, let list = devices[device], seq <= UInt64(list.count) else { return nil }
        let digest = list[Int(seq - 1)]
        return Self.hex(digest.high) + Self.hex(digest.low)
    }

    private static func parse(_ hex: String) -> Digest? {
        guard EventDigest.isWellFormed(hex) else { return nil }
        let utf8 = Array(hex.utf8)
        func half(_ range: Range<Int>) -> UInt64? { UInt64(String(decoding: utf8[range], as: UTF8.self), radix: 16) }
        guard let high = half(0..<16), let low = half(16..<32) else { return nil }
        return Digest(high: high, low: low)
    }

    private static func hex(_ value: UInt64) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
