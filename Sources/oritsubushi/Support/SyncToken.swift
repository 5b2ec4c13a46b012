import LedgerCore

/// The bearer token of `sync` and `verify --repair --server`: --token, else $ORITSUBUSHI_TOKEN,
/// else the first line of the file `sync-token` in the ledger directory. It is never printed.
/// `sync` keeps a token given with --token in that file (mode 0600) once a sync succeeded.
enum SyncToken {
    static let fileName = "sync-token"

    static func resolve(_ token: String?, ledgerDirectory: String) throws -> String {
        if let token, !token.isEmpty { return token }
        if let env = Environment.variable("ORITSUBUSHI_TOKEN"), !env.isEmpty { return env }
        let path = Path.join(ledgerDirectory, fileName)
        let fs = PosixFileSystem()
        if fs.fileExists(path) {
            let text = String(decoding: try fs.readFile(path), as: UTF8.self)
            if let first = text.split(whereSeparator: \.isNewline).first.map(String.init), !first.isEmpty {
                return first.trimmingCharacters(in: " \t")
            }
        }
        throw LedgerError(.usage, "no sync token: pass --token, set ORITSUBUSHI_TOKEN, or write it to \(path)")
    }

    /// Writes `token` to the ledger's token file atomically, readable by its owner only (the
    /// temporary copy too), unless the file already holds it.
    static func save(_ token: String, ledgerDirectory: String) throws {
        let path = Path.join(ledgerDirectory, fileName)
        let fs = PosixFileSystem(ownerOnly: true)
        let line = Array((token + "\n").utf8)
        if fs.fileExists(path), (try? fs.readFile(path)) == line { return }
        try fs.writeAtomically(path, line)
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let c = s.first, set.contains(c) { s.removeFirst() }
        while let c = s.last, set.contains(c) { s.removeLast() }
        return String(s)
    }
}
