import LedgerCore

/// Where a ledger's catalogue came from: the bundled dump or a file the user named. Kept in
/// `catalog-source` next to `catalog.sqlite` (one line: `bundled` or the absolute path), written
/// after a successful import; a ledger whose catalogue predates it reports `unknown`. It is local
/// information, like the catalogue itself, never part of the log.
package enum CatalogSource: Equatable, Sendable, CustomStringConvertible {
    case bundled
    case file(String)
    case unknown

    package static let fileName = "catalog-source"

    package var description: String {
        switch self {
        case .bundled: "bundled"
        case .file(let path): path
        case .unknown: "unknown"
        }
    }

    package static func read(ledgerDirectory: String, fileSystem: any FileSystem) -> CatalogSource {
        let path = Path.join(ledgerDirectory, fileName)
        guard fileSystem.fileExists(path), let bytes = try? fileSystem.readFile(path) else { return .unknown }
        let text = String(decoding: bytes, as: UTF8.self).trimmingSuffix(while: { $0 == "\n" })
        switch text {
        case "": return .unknown
        case "bundled": return .bundled
        default: return .file(text)
        }
    }

    package func write(ledgerDirectory: String, fileSystem: any FileSystem) throws {
        try fileSystem.writeAtomically(Path.join(ledgerDirectory, Self.fileName), Array((description + "\n").utf8))
    }
}

private extension String {
    func trimmingSuffix(while predicate: (Character) -> Bool) -> String {
        var copy = self
        while let last = copy.last, predicate(last) { copy.removeLast() }
        return copy
    }
}
