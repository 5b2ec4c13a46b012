import ArgumentParser

/// Where `repair` (and its alias `verify --repair`) fetch the damaged segments' events again:
/// `--from DIR` or `--server URL [--token T]`.
struct RepairSource: ParsableArguments {
    @Option(help: ArgumentHelp("Repair from this healthy replica's ledger directory.", valueName: "dir")) var from: String?
    @Option(help: ArgumentHelp("Repair from this sync server (its base URL).", valueName: "url")) var server: String?
    @Option(help: "With --server: the bearer token (default: $ORITSUBUSHI_TOKEN, else the file sync-token).")
    var token: String?

    var isGiven: Bool { from != nil || server != nil }

    /// The checks of both spellings; `spelling` ("repair" or "--repair") names the one used.
    func check(spelling: String) throws {
        guard (from == nil) != (server == nil) else {
            throw ValidationError("\(spelling) needs exactly one of --from DIR and --server URL")
        }
        if token != nil && server == nil { throw ValidationError("--token is only for \(spelling) --server") }
    }
}
