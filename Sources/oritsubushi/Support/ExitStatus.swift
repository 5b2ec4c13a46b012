import ArgumentParser
import LedgerCore

#if canImport(Glibc)
import Glibc
#endif

/// The one place where a failure becomes one sentence on stderr and a sysexits code
/// (sysexits.h; the codes are listed in `oritsubushi --help` and docs/ledger-cli.md). Commands only throw;
/// `Oritsubushi.main()` hands what they throw here.
enum ExitStatus {
    /// The exit code of a ledger error's category.
    static func code(for category: LedgerError.Category) -> Int32 {
        switch category {
        case .usage: return 64                              // EX_USAGE
        case .badInput, .corruption, .conflict: return 65   // EX_DATAERR
        case .missingLedger: return 66                      // EX_NOINPUT
        case .unavailable: return 69                        // EX_UNAVAILABLE
        case .io: return 74                                 // EX_IOERR
        case .locked: return 75                             // EX_TEMPFAIL
        case .permission: return 77                         // EX_NOPERM
        }
    }

    /// A failure while parsing the command line or in a command's `validate()`: a usage error
    /// becomes one sentence pointing at the help (exit 64) instead of ArgumentParser's message
    /// plus usage block. Help, version and bare exit codes keep ArgumentParser's handling.
    static func exit(parsing error: any Error) -> Never {
        let code = Oritsubushi.exitCode(for: error)
        let text = Oritsubushi.message(for: error).split(separator: "\n").first.map(String.init) ?? ""
        guard code != .success, !text.isEmpty else { Oritsubushi.exit(withError: error) }
        print(line: "error: \(text) (see 'oritsubushi help')", code: code.rawValue)
    }

    /// A failure while a command runs. A `LedgerError` exits with its category's code;
    /// ArgumentParser's own errors (`ExitCode`, `CleanExit`, `ValidationError`, and the help
    /// request that the `help` subcommand throws) keep its handling; anything else is an I/O
    /// failure from Foundation or the system.
    static func exit(running error: any Error) -> Never {
        switch error {
        case let error as LedgerError:
            print(line: "error: \(error.description)\(repairHint(error))", code: code(for: error.category))
        case is ExitCode, is CleanExit, is ValidationError:
            exit(parsing: error)
        case _ where Oritsubushi.exitCode(for: error) != .failure:
            exit(parsing: error)   // ArgumentParser's internal error types, recognisable only by their code
        default:
            print(line: "error: \(error)", code: code(for: .io))
        }
    }

    /// A damaged segment is mended from another copy of the ledger (docs/ledger-cli.md "Repairing a
    /// damaged replica"), so its error says how.
    private static func repairHint(_ error: LedgerError) -> String {
        guard error.category == .corruption, let file = error.file, file.hasSuffix(".seg") else { return "" }
        return "; repair it from a healthy copy with 'oritsubushi repair --from DIR' (or --server URL)"
    }

    private static func print(line: String, code: Int32) -> Never {
        Terminal.error(line)
        Glibc.exit(code)
    }
}
