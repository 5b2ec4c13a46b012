import LedgerCore

/// A record as an end-to-end encrypted account's server holds it (Schemas/encryption.md §3): the
/// fields the server needs in the clear, the rest sealed under one epoch's data key.
package struct SealedRecord: Equatable, Sendable {
    /// What the seal holds, in the clear: an event (a seq-bearing record) or a device name.
    package enum Kind: UInt8, Sendable {
        case event = 5
        case name = 6
    }

    package var kind: Kind
    package var device: DeviceID
    /// The event's seq; 0 for a name, which has none.
    package var seq: UInt64
    package var epoch: UInt32
    /// The synthetic nonce: the keyed content id (12 bytes).
    package var nonce: [UInt8]
    /// The ciphertext of the padded record, then the 16-byte tag.
    package var ciphertext: [UInt8]

    package init(kind: Kind, device: DeviceID, seq: UInt64, epoch: UInt32, nonce: [UInt8], ciphertext: [UInt8]) {
        self.kind = kind
        self.device = device
        self.seq = seq
        self.epoch = epoch
        self.nonce = nonce
        self.ciphertext = ciphertext
    }

    /// The associated data of the seal: "ORTSBSEAL1", the kind, device, seq and epoch (31 bytes).
    package var associatedData: [UInt8] {
        var bytes = Array("ORTSBSEAL1".utf8)
        bytes.reserveCapacity(31)
        bytes.append(kind.rawValue)
        bytes.appendLittleEndian(device.rawValue)
        bytes.appendLittleEndian(seq)
        bytes.appendLittleEndian(epoch)
        return bytes
    }
}
