import LedgerCore

/// Which user each device id belongs to, without opening every ledger: `DATA/devices/<16 hex>`
/// holds the owner's name. A claim is written to a temporary file, fsynced, then hard-linked to
/// its name — `FileSystem.link` refuses when another push (of this or another process) claimed
/// the device first, and a visible claim is always complete — and the directory is fsynced before
/// the push that made it is acknowledged (Schemas/server-store.md, "Files store").
struct DeviceClaims: Sendable {
    static let directoryName = "devices"
    let directory: String
    private let fileSystem: any FileSystem

    init(dataDirectory: String, fileSystem: any FileSystem) {
        directory = Path.join(dataDirectory, Self.directoryName)
        self.fileSystem = fileSystem
    }

    /// The owner of `device`, claiming it for `user` when nobody has.
    func claim(_ device: DeviceID, for user: String) throws -> String {
        let path = Path.join(directory, device.description)
        if let owner = try owner(at: path) { return owner }
        let temporary = Path.join(directory, ".claim-\(device)-\(UInt64.random(in: 0...UInt64.max))")
        try fileSystem.writeAtomically(temporary, Array(user.utf8))
        defer { try? fileSystem.removeFile(temporary) }
        guard try fileSystem.link(temporary, to: path) else { return try owner(at: path) ?? user }
        try fileSystem.syncDirectory(directory)
        return user
    }

    /// Checks every device a push writes, in the order they first appear (as a refusal names
    /// them): not the server's own id (`serverDevice`), and this user's: held already
    /// (`holds`), or claimed for them now. Refuses 409 and 403 as Schemas/sync-api.yaml says.
    func checkPush(_ devices: [DeviceID], for user: String, serverDevice: DeviceID?, holds: (DeviceID) -> Bool) throws {
        for device in devices {
            if device == serverDevice {
                throw SyncServerError(.conflict, "device \(device) is the server's own id and cannot be pushed")
            }
            if !holds(device), try claim(device, for: user) != user {
                throw SyncServerError(.forbidden, "device \(device) belongs to another user; a token never writes another user's log")
            }
        }
    }

    /// The devices of a push's records in the order they first appear.
    static func devices(of records: (( DeviceID) -> Void) -> Void) -> [DeviceID] {
        var devices: [DeviceID] = []
        var seen = Set<DeviceID>()
        var last: DeviceID?  // pushes hold long runs of one device: one lookup a run
        records { device in
            guard device != last else { return }
            last = device
            if seen.insert(device).inserted { devices.append(device) }
        }
        return devices
    }

    private func owner(at path: String) throws -> String? {
        guard fileSystem.fileExists(path) else { return nil }
        return String(decoding: try fileSystem.readFile(path), as: UTF8.self)
    }

    /// A data directory made before `devices/` existed: claims every device of every ledger
    /// (opening each once), then renames the finished directory into place, so a crash midway
    /// starts over. Nothing to do when `devices/` exists.
    static func migrate(dataDirectory: String, ledgers: String, clock: any WallClock, fileSystem: any FileSystem) throws {
        let final = Path.join(dataDirectory, directoryName)
        guard !fileSystem.directoryExists(final) else { return }
        let building = final + ".migrating"
        if fileSystem.directoryExists(building) {
            for name in try fileSystem.listDirectory(building) { try fileSystem.removeFile(Path.join(building, name)) }
        } else {
            try fileSystem.createDirectory(building)
        }
        let claims = DeviceClaims(directory: building, fileSystem: fileSystem)
        for user in try fileSystem.listDirectory(ledgers).sorted() where !user.hasPrefix(".") {
            let directory = Path.join(ledgers, user)
            guard fileSystem.fileExists(Path.join(directory, LedgerMetadata.fileName)) else { continue }
            let ledger = try Ledger.open(directory: directory, fileSystem: fileSystem, clock: clock)
            defer { ledger.close() }
            for device in Set(ledger.versionVector.keys).union(ledger.deviceNames.keys) where device != ledger.localDevice {
                _ = try claims.claim(device, for: user)
            }
        }
        try fileSystem.rename(building, to: final)
        try fileSystem.syncDirectory(dataDirectory)
    }

    private init(directory: String, fileSystem: any FileSystem) {
        (self.directory, self.fileSystem) = (directory, fileSystem)
    }
}
