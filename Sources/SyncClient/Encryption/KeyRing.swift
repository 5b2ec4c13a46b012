import LedgerCore
import LedgerSync

/// A device's data keys of an end-to-end encrypted account, one per epoch (Schemas/encryption.md
/// §2), and whether the current key's recovery kit was rehearsed. The CLI keeps them in
/// `<ledger>/encryption-keys` (its format: encryption.md §11 "The device's key file", and
/// `KeyRing+File.swift`); a device holding only the newest key reads every older epoch's records
/// once it unlocks the server's key chain (`unlockChain`).
package struct KeyRing: Sendable, Equatable {
    /// The keys, by ascending epoch, one per epoch.
    package private(set) var keys: [DataKey]
    /// The epochs whose recovery kit the person re-entered words of (`RecoveryKitRehearsal`).
    package private(set) var rehearsedEpochs: Set<UInt32>

    /// A ring of one key (a device's first, made or received).
    package init(_ key: DataKey) {
        keys = [key]
        rehearsedEpochs = []
    }

    /// A ring of `keys` (epochs distinct, any order); nil when there is none.
    package init?(keys: [DataKey], rehearsedEpochs: Set<UInt32> = []) {
        guard !keys.isEmpty else { return nil }
        self.keys = []
        self.rehearsedEpochs = []
        for key in keys { insert(key) }
        self.rehearsedEpochs = rehearsedEpochs.filter { key(epoch: $0) != nil }
    }

    /// The newest epoch's key: the one a push seals with.
    package var current: DataKey { keys[keys.count - 1] }

    /// The key of `epoch`, if this device holds it.
    package func key(epoch: UInt32) -> DataKey? {
        var low = 0, high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle].epoch < epoch { low = middle + 1 } else { high = middle }
        }
        return low < keys.count && keys[low].epoch == epoch ? keys[low] : nil
    }

    /// The ring with `key` added (a rotation's new key, one received by a link or read from a
    /// kit); a held key of the same epoch is replaced, and its kit counts as not rehearsed when
    /// the bytes differ.
    package func adding(_ key: DataKey) -> KeyRing {
        var ring = self
        ring.insert(key)
        return ring
    }

    /// Whether the current key's kit was rehearsed.
    package var isKitRehearsed: Bool { rehearsedEpochs.contains(current.epoch) }

    /// The ring with the current key's kit marked rehearsed.
    package func markingKitRehearsed() -> KeyRing {
        var ring = self
        ring.rehearsedEpochs.insert(current.epoch)
        return ring
    }

    /// Unwraps, from the newest key held down, every older epoch's key the server's key chain
    /// holds (`keyChain[e]`: epoch e's key wrapped under epoch e + 1's `K_chain`, purpose 2,
    /// encryption.md §4), so that a device holding only the newest key reads every older frame.
    /// Keys already held are kept; an epoch whose next epoch's key stays missing stays locked.
    /// Entries at or above the current epoch are not this ring's to open, and epoch 0 is none
    /// (epochs start at 1): both are passed over.
    /// Returns the epochs it added (save the ring when there are any); on a refusal the ring is
    /// left as it was.
    /// - Throws: `EncryptionError` `.brokenChain(epoch:)` when an entry does not open under the
    ///   next epoch's key or holds another epoch's key: the chain is damaged, or the key this
    ///   device holds is not the account's.
    @discardableResult
    package mutating func unlockChain(_ keyChain: [UInt32: [UInt8]]) throws(EncryptionError) -> [UInt32] {
        var ring = self
        var added: [UInt32] = []
        // Newest first: each unwrapped key is the wrapping key of the entry below it.
        for epoch in keyChain.keys.sorted(by: >) where epoch > 0 && epoch < current.epoch && ring.key(epoch: epoch) == nil {
            guard let wrapping = ring.key(epoch: epoch + 1), let wrapped = keyChain[epoch] else { continue }
            let unwrapped: DataKey
            do {
                unwrapped = try KeyWrap.unwrap(wrapped, under: wrapping.chainKey, purpose: .chain)
            } catch {
                throw EncryptionError(.brokenChain(epoch: epoch),
                                      "the server's key chain does not open at epoch \(epoch) under this device's key of epoch \(epoch + 1) (\(error.reason)): the chain is damaged, or this device's key is not the account's; compare the key's fingerprint with another device's")
            }
            guard unwrapped.epoch == epoch else {
                throw EncryptionError(.brokenChain(epoch: epoch),
                                      "the server's key chain holds a key of epoch \(unwrapped.epoch) where epoch \(epoch)'s belongs: the chain is damaged")
            }
            ring.insert(unwrapped)
            added.append(epoch)
        }
        self = ring
        return added
    }

    /// Puts `key` in its place by epoch, replacing a held key of that epoch.
    private mutating func insert(_ key: DataKey) {
        if let index = keys.firstIndex(where: { $0.epoch == key.epoch }) {
            if keys[index] != key { rehearsedEpochs.remove(key.epoch) }
            keys[index] = key
        } else {
            keys.append(key)
            keys.sort { $0.epoch < $1.epoch }
        }
    }
}
