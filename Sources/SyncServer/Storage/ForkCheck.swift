import LedgerCore
import LedgerSync

/// The server's half of fork detection (Schemas/merge.md §10), shared by both stores so that
/// they refuse with the same words: for every device of a pull's `have` that the store holds at
/// that seq, the client's digest must equal the store's.
package enum ForkCheck {
    /// The decoded `have` of a pull, after checking that `have_digests` covers it.
    package static func decodeHave(_ request: PullRequest) throws -> [DeviceID: UInt64] {
        let have = try WireVersionVector.decode(request.have)
        let digests = request.haveDigests ?? [:]
        if request.haveDigests == nil, have.values.contains(where: { $0 > 0 }) {
            throw SyncServerError(.malformed, "this client sends no have_digests, so it cannot detect a copied ledger (API 2); update oritsubushi")
        }
        for (device, seq) in have where seq > 0 {
            guard let digest = digests[device.description], EventDigest.isWellFormed(digest) else {
                throw SyncServerError(.malformed, "have_digests lacks a 32-hex-digit digest for device \(device)")
            }
        }
        return have
    }

    /// Throws `.fork` for the first device (in id order) whose event at the client's seq differs
    /// from the store's. `storedDigest(device, seq)` is nil when the store does not hold that seq.
    package static func check(_ have: [DeviceID: UInt64], _ request: PullRequest,
                              storedDigest: (DeviceID, UInt64) async throws -> String?) async throws {
        let digests = request.haveDigests ?? [:]
        for (device, seq) in have.sorted(by: { $0.key < $1.key }) where seq > 0 {
            guard let theirs = digests[device.description], let ours = try await storedDigest(device, seq) else { continue }
            if theirs != ours { throw forked(device: device, seq: seq) }
        }
    }

    /// The refusal: the same (device, seq) holds different events here and on the client.
    package static func forked(device: DeviceID, seq: UInt64) -> SyncServerError {
        SyncServerError(.fork, "device \(device) event #\(seq) differs between the client's copy and the server's: the ledger was copied (a restored backup or a cloned directory), and the copy must take a new device id (Schemas/merge.md §10)",
                        device: device.description, seq: seq)
    }
}
