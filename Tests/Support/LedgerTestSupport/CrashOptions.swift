/// What survives a simulated crash of a `CrashableFileSystem`.
///
/// The default, `powerLoss`, follows pebble's `memfs_crashable` rules: bytes written since the
/// last `sync()` of their file are lost, and so is every directory entry (create, rename,
/// remove) made since the last `syncDirectory` of its parent. Real disks may also persist part
/// of the unsynced data, so a crash may keep any prefix of a file's unsynced appends.
package struct CrashOptions: Sendable, CustomStringConvertible {
    package enum UnsyncedData: Sendable, Equatable {
        /// Every unsynced byte is lost.
        case drop
        /// Every unsynced byte survives (a process kill: the page cache outlives the process).
        case keep
        /// Each file keeps a random prefix (possibly empty, possibly all) of its unsynced appends.
        case keepRandomPrefix(seed: UInt64)
    }

    package var unsyncedData: UnsyncedData
    /// Whether directory entries that were never made durable survive anyway.
    package var keepUnsyncedEntries: Bool

    package init(unsyncedData: UnsyncedData, keepUnsyncedEntries: Bool) {
        self.unsyncedData = unsyncedData
        self.keepUnsyncedEntries = keepUnsyncedEntries
    }

    /// Power loss: only what was fsynced survives.
    package static let powerLoss = CrashOptions(unsyncedData: .drop, keepUnsyncedEntries: false)
    /// Power loss on a disk that had written part of the unsynced data.
    package static func powerLoss(keepingRandomPrefix seed: UInt64) -> CrashOptions {
        CrashOptions(unsyncedData: .keepRandomPrefix(seed: seed), keepUnsyncedEntries: false)
    }
    /// Power loss after the disk had written every unsynced byte but no unsynced entry.
    package static let powerLossKeepingData = CrashOptions(unsyncedData: .keep, keepUnsyncedEntries: false)
    /// A killed process: the kernel keeps everything that was written.
    package static let processKill = CrashOptions(unsyncedData: .keep, keepUnsyncedEntries: true)

    package var description: String {
        switch unsyncedData {
        case .drop: return keepUnsyncedEntries ? "drop data, keep entries" : "power loss"
        case .keep: return keepUnsyncedEntries ? "process kill" : "power loss keeping unsynced data"
        case .keepRandomPrefix(let seed): return "power loss keeping a random prefix (seed \(seed))"
        }
    }
}
