import ArgumentParser
import SyncServer

/// `--ttl`, how long a one-time pairing code works: shared by `server pair` (the operator's code)
/// and `device link` (a device's code for another), which take the same durations.
struct CodeLifetimeOptions: ParsableArguments {
    @Option(help: ArgumentHelp("How long the code works: 90s, 10m, 2h or 1d (1 minute to 7 days).", valueName: "duration"))
    var ttl = "10m"

    func validate() throws {
        guard PairingCode.lifetime(ttl) != nil else {
            throw ValidationError("--ttl '\(ttl)' is not a duration from 1 minute to 7 days (e.g. 90s, 10m, 2h, 1d)")
        }
    }

    /// The lifetime in milliseconds (valid: `validate` ran first).
    var milliseconds: Int64 { PairingCode.lifetime(ttl) ?? 0 }
}
