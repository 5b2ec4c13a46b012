import LedgerCore
import LedgerSync

/// The server's half of fork detection (Schemas/merge.md §10), shared by both stores so that
/// they refuse with the same words: for every device of a pull's `have` that the store holds at
/// that seq, the client's digest must equal the store's.
package enum ForkCheck {
    /// The decoded `have` of a pull, after checking `have_digests`: required (API 2: a client
    /// without it cannot detect a copied ledger, and is told to update), each key a device id and
    /// each value 32 lowercase hex digits. A device of `have` without a digest is not checked here
    /// (the client still compares `server_digests`).
    package static func decodeHave(_ request: PullRequest) throws -> [DeviceID: UInt64] {
        let have = try WireVersionVector.decode(request.have)
        guard let digests = request.haveDigests else {
            throw SyncServerError(.malformed, "this client sends no have_digests, so it cannot detect a copied ledger (API 2); update oritsubushi")
        }
        for (key, digest) in digests.sorted(by: { $0.key < $1.key }) {
            guard WireGrammar.device(key) != nil else {
                throw SyncServerError(.unprocessable, "have_digests key '\(key)' is not a device id (16 lowercase hex digits, not all zero)")
            }
            guard EventDigest.isWellFormed(digest) else {
                throw SyncServerError(.unprocessable, "have_digests['\(key)'] is not an event digest (32 lowercase hex digits)")
            }
        }
        return have
    }

    /// The page size a pull asks for, capped at `maximum`; below 1 is refused (422), as the API
    /// description says.
    package static func pageLimit(_ request: PullRequest, maximum: Int) throws -> Int {
        guard let limit = request.limit else { return maximum }
        guard limit >= 1 else { throw SyncServerError(.unprocessable, "limit \(limit) is below 1") }
        return min(limit, maximum)
    }

    /// Throws `.fork` for the first device (in id order) whose event at the client's seq differs
    /// from the store's. `stored` holds the store's digest of the event at `have[device]` for
    /// each device it holds at that seq.
    package static func check(_ have: [DeviceID: UInt64], _ request: PullRequest, stored: [DeviceID: String]) throws {
        let digests = request.haveDigests ?? [:]
        for (device, seq) in have.sorted(by: { $0.key < $1.key }) where seq > 0 {
            guard let theirs = digests[device.description], let ours = stored[device] else { continue }
            if theirs != ours { throw forked(device: device, seq: seq) }
        }
    }

    /// The refusal: the same (device, seq) holds different events here and on the client.
    package static func forked(device: DeviceID, seq: UInt64) -> SyncServerError {
        SyncServerError(.fork, "device \(device) event #\(seq) differs between the client's copy and the server's: the ledger was copied (a restored backup or a cloned directory), and the copy must take a new device id (Schemas/merge.md §10)",
                        device: device.description, seq: seq)
    }
}
