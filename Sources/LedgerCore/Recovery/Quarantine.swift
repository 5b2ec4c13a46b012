/// `quarantine/<UTC time>/` in a ledger directory: where a repair moves damaged segments (and
/// files derived from the log) aside — never deleting them — with a `REPAIRING` marker until
/// the repair is done (RELIABILITY.md, "Repairing a damaged replica").
///
/// Segments are moved newest first, so what stays in `segments/` is always a prefix of the log,
/// and every move is made durable (both directories fsynced) before the next.
package struct Quarantine {
    package static let directoryName = "quarantine"
    package static let unfinishedMarker = "REPAIRING"

    package let ledgerDirectory: String
    package let fileSystem: any FileSystem

    package init(ledgerDirectory: String, fileSystem: any FileSystem) {
        (self.ledgerDirectory, self.fileSystem) = (ledgerDirectory, fileSystem)
    }

    package var path: String { Path.join(ledgerDirectory, Self.directoryName) }
    private var segmentsPath: String { Path.join(ledgerDirectory, Ledger.segmentsDirectory) }

    /// Runs (directory names) left by repairs (or, with another `marker`, by other rewrites) that
    /// did not finish, oldest first.
    package func unfinishedRuns(marker: String = Quarantine.unfinishedMarker) throws -> [String] {
        guard fileSystem.directoryExists(path) else { return [] }
        return try fileSystem.listDirectory(path).sorted().filter {
            fileSystem.fileExists(Path.join(Path.join(path, $0), marker))
        }
    }

    /// Every segment file of run `run`, each salvaged on its own.
    package func salvagedSegments<Record>(of run: String, ledgerID: [UInt8]) throws -> [SalvagedSegment<Record>] {
        let directory = Path.join(path, run)
        return try fileSystem.listDirectory(directory).sorted().compactMap { file in
            guard let number = SegmentInfo.number(ofFileName: file) else { return nil }
            return SalvagedSegment<Record>.read(number: number, path: Path.join(directory, file), ledgerID: ledgerID,
                                        isNewest: true, fileSystem: fileSystem)
        }
    }

    /// Creates a new run directory named after `milliseconds` (UTC), holding the unfinished
    /// marker, durably. Returns its name.
    package func beginRun(at milliseconds: Int64, marker: String = Quarantine.unfinishedMarker,
                          note: String = "an interrupted 'oritsubushi verify --repair' moved these files aside; run it again to finish\n") throws -> String {
        if !fileSystem.directoryExists(path) {
            try fileSystem.createDirectory(path)
            try fileSystem.syncDirectory(ledgerDirectory)
        }
        let iso = ISO8601.format(milliseconds: milliseconds)
        let stamp = String(iso.prefix(19).filter { $0 != "-" && $0 != ":" }) + "Z"
        var name = stamp
        var attempt = 1
        while fileSystem.directoryExists(Path.join(path, name)) || fileSystem.fileExists(Path.join(path, name)) {
            attempt += 1
            name = "\(stamp)-\(attempt)"
        }
        let run = Path.join(path, name)
        try fileSystem.createDirectory(run)
        try fileSystem.syncDirectory(path)
        try fileSystem.writeAtomically(Path.join(run, marker), Array(note.utf8))
        return name
    }

    /// Moves every file of segments numbered `first` and above (the segment and any side files
    /// named after it) into run `run`, newest first. Returns the names moved, in order.
    package func moveSegments(from first: UInt32, into run: String) throws -> [String] {
        let names = try fileSystem.listDirectory(segmentsPath)
        let byNumber = Dictionary(grouping: names.compactMap { name -> (UInt32, String)? in
            guard name.count >= 8, let number = UInt32(name.prefix(8)), number >= first else { return nil }
            return (number, name)
        }, by: \.0)
        var moved: [String] = []
        for number in byNumber.keys.sorted(by: >) {
            let segment = SegmentInfo.fileName(number)
            // Side files first: the segment itself goes last.
            for name in byNumber[number]!.map(\.1).sorted(by: { ($0 == segment ? 1 : 0, $0) < ($1 == segment ? 1 : 0, $1) }) {
                try moveAside(Path.join(segmentsPath, name), into: run)
                moved.append(name)
            }
        }
        return moved
    }

    /// Moves one file into run `run`, durably.
    package func moveAside(_ file: String, into run: String) throws {
        let target = Path.join(path, run)
        try fileSystem.rename(file, to: Path.join(target, Path.lastComponent(file)))
        try fileSystem.syncDirectory(target)
        try fileSystem.syncDirectory(Path.parent(of: file))
    }

    /// Removes the unfinished marker of each run, durably: the repair is done.
    package func finish(_ runs: [String]) throws {
        for run in runs {
            try fileSystem.removeFile(Path.join(Path.join(path, run), Self.unfinishedMarker))
            try fileSystem.syncDirectory(Path.join(path, run))
        }
    }
}
