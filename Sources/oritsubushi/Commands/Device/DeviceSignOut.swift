import ArgumentParser
import LedgerCore
import SyncClient

extension Device {
    struct SignOut: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sign-out",
            abstract: "Sign this device out: revoke its token on the server and forget it here.",
            discussion: """
                The ledger and its events stay as they are; events not yet pushed stay only here \
                (sync first). The sync-token file is removed. To sync again, join with a new \
                link ('device join') or pass a token.
                """)

        @OptionGroup var options: DeviceConnectionOptions

        func run() async throws {
            let revoked = try await options.connection().signOut()
            let tokenFile = Path.join(options.ledger.directory, SyncToken.fileName)
            let fileSystem = PosixFileSystem()
            if fileSystem.fileExists(tokenFile) { try fileSystem.removeFile(tokenFile) }
            print("signed out: device \(revoked.label) can no longer sync; its token is forgotten here")
        }
    }
}
