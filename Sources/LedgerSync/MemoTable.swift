import LedgerCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The distinct memos of a set of station edits, each stored once as UTF-8 bytes.
///
/// Conflict detection compares memos millions of times and keeps them for every edit of every
/// affected station; a `String` per edit cost an allocation and a release each. Here an edit
/// keeps a 32-bit id. Ids name exact byte sequences (what a conflict reports); `valueClass`
/// groups ids whose strings are equal under `String.==` (canonical equivalence), which is what
/// decides whether two memos differ, so results equal those of comparing `String`s.
package struct MemoTable: Sendable {
    private var bytes: [UInt8] = []
    private var starts: [Int] = []
    private var counts: [Int] = []
    /// Exact id → value class.
    private var classes: [UInt32] = []
    /// Hash of the bytes → the latest id with that hash; `sameHash` chains to earlier ones.
    private var byHash: [UInt64: UInt32] = [:]
    private var sameHash: [UInt32] = []
    private var classOfString: [String: UInt32] = [:]

    package init() {}

    package var count: Int { starts.count }

    /// The id of `memo`'s exact bytes, adding them if new.
    package mutating func intern(_ memo: UnsafeRawBufferPointer) -> UInt32 {
        let hash = RecordFingerprint.of(memo)
        var candidate = byHash[hash]
        while let id = candidate {
            if equalBytes(id, memo) { return id }
            let next = sameHash[Int(id)]
            candidate = next == .max ? nil : next
        }
        let id = UInt32(starts.count)
        starts.append(bytes.count)
        counts.append(memo.count)
        bytes.append(contentsOf: memo)
        sameHash.append(byHash[hash] ?? .max)
        byHash[hash] = id
        // A new byte sequence is rare (a ledger repeats few memos): its String is built once.
        let string = String(decoding: memo, as: UTF8.self)
        if let known = classOfString[string] {
            classes.append(known)
        } else {
            let valueClass = UInt32(classOfString.count)
            classOfString[string] = valueClass
            classes.append(valueClass)
        }
        return id
    }

    package mutating func intern(_ memo: String) -> UInt32 {
        var memo = memo
        return memo.withUTF8 { intern(UnsafeRawBufferPointer($0)) }
    }

    /// Ids with equal classes hold memos that `String.==` finds equal.
    @inline(__always)
    package func valueClass(_ id: UInt32) -> UInt32 { classes[Int(id)] }

    package func string(_ id: UInt32) -> String {
        let start = starts[Int(id)], count = counts[Int(id)]
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<start + count]), as: UTF8.self) }
    }

    private func equalBytes(_ id: UInt32, _ memo: UnsafeRawBufferPointer) -> Bool {
        let start = starts[Int(id)], count = counts[Int(id)]
        guard count == memo.count else { return false }
        return bytes.withUnsafeBytes { stored in
            count == 0 || memcmp(stored.baseAddress! + start, memo.baseAddress!, count) == 0
        }
    }
}
