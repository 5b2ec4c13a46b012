import Foundation
import LedgerCore

/// `sync-state.json` in a ledger directory: per device, the highest seq a sync server has
/// acknowledged holding (its `server_has` after the last successful sync, kept as the maximum
/// over every sync). `reissue` reads it: a local event at or below it was received by someone
/// (Schemas/merge.md §11). `status` counts the events beyond it as waiting to be pushed, and a
/// plain `sync` uses its `server` again. Local state, not in the log; written atomically by
/// `sync` (Schemas/segment-format.md §0).
package struct SyncState: Codable, Equatable, Sendable {
    package static let fileName = "sync-state.json"

    /// {"<device hex>": seq}.
    package var received: [String: UInt64] = [:]
    /// When the last successful sync ended (ISO 8601 UTC).
    package var syncedAt: String?
    /// The base URL of the server of the last successful sync (absent in files of older builds).
    package var server: String?

    enum CodingKeys: String, CodingKey {
        case received = "server_has"
        case syncedAt = "synced_at"
        case server
    }

    package init() {}

    /// The highest seq of `device` a server acknowledged, 0 if none.
    package func received(_ device: DeviceID) -> UInt64 { received[device.description] ?? 0 }

    /// The events of `versionVector` (a ledger's) beyond what a server acknowledged: what the
    /// next sync pushes (seqs are continuous per device, Schemas/merge.md).
    package func pending(_ versionVector: [DeviceID: UInt64]) -> UInt64 {
        versionVector.reduce(0) { sum, entry in sum + entry.value - min(entry.value, received(entry.key)) }
    }

    /// The state of the ledger in `directory`; an absent file is the empty state, an unreadable
    /// one refuses (reissue must not guess what was received).
    package static func read(directory: String, fileSystem: any FileSystem) throws -> SyncState {
        let path = Path.join(directory, fileName)
        guard fileSystem.fileExists(path) else { return SyncState() }
        guard let state = try? JSONDecoder().decode(SyncState.self, from: Data(try fileSystem.readFile(path))) else {
            throw LedgerError(.corruption, "the sync state is unreadable; run 'oritsubushi sync' to write it again", file: path)
        }
        return state
    }

    /// Records `serverHas` (merged by maximum into what is stored) and the server after a
    /// successful sync.
    package static func record(_ serverHas: [DeviceID: UInt64], server: String, directory: String,
                               fileSystem: any FileSystem, now: Int64) throws {
        var state = (try? read(directory: directory, fileSystem: fileSystem)) ?? SyncState()
        for (device, seq) in serverHas { state.received[device.description] = max(state.received(device), seq) }
        state.syncedAt = ISO8601.format(milliseconds: now)
        state.server = server
        try fileSystem.writeAtomically(Path.join(directory, fileName), try JSONEncoding.file.encode(state) + [0x0A])
    }
}
