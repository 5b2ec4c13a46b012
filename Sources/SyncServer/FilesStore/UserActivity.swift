import Foundation
import LedgerCore

/// The last accepted push and answered pull of one user, in `DATA/activity/<user>.json`
/// (`{"devices": {id: ms}, "last_pull": ms, "last_push": ms}`), for `server users`. Written atomically by the serving
/// process at most every `FilesStore.Tuning.activityInterval` per user and when the user's
/// ledger is closed, so a figure may lag by that interval; losing it loses no event.
package struct UserActivity: Codable, Sendable, Equatable {
    package static let directoryName = "activity"

    package var lastPush: Int64?
    package var lastPull: Int64?
    /// Each device's last sync, by `UserDevice.id` (absent in files of older versions).
    package var devices: [String: Int64]?

    enum CodingKeys: String, CodingKey {
        case lastPush = "last_push"
        case lastPull = "last_pull"
        case devices
    }

    package init(lastPush: Int64? = nil, lastPull: Int64? = nil) {
        (self.lastPush, self.lastPull) = (lastPush, lastPull)
    }

    static func path(dataDirectory: String, user: String) -> String {
        Path.join(Path.join(dataDirectory, directoryName), user + ".json")
    }

    /// What was recorded for `user` (empty when nothing was, or the file is unreadable).
    package static func read(dataDirectory: String, user: String, fileSystem: any FileSystem) -> UserActivity {
        guard let bytes = try? fileSystem.readFile(path(dataDirectory: dataDirectory, user: user)),
              let activity = try? JSONDecoder().decode(UserActivity.self, from: Data(bytes)) else { return UserActivity() }
        return activity
    }

    func write(dataDirectory: String, user: String, fileSystem: any FileSystem) throws {
        // A user erased by `server delete-user` while their ledger was open leaves no file behind.
        guard fileSystem.directoryExists(Path.join(Path.join(dataDirectory, FilesStore.ledgersDirectory), user)) else { return }
        let directory = Path.join(dataDirectory, Self.directoryName)
        try fileSystem.createDirectoryDurably(directory)
        try fileSystem.writeAtomically(Self.path(dataDirectory: dataDirectory, user: user), try JSONEncoding.compact.encode(self))
    }
}
