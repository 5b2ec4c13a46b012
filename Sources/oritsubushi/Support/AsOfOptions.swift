import ArgumentParser
import LedgerCatalog
import LedgerCore

/// `--as-of TIME`, shared by `station show` and `stats`: answer from the events up to that time,
/// folded in memory (CatalogSupport.projection); a bad time is a usage error before anything is
/// opened.
struct AsOfOptions: ParsableArguments {
    @Option(help: "Answer as of this time (ISO 8601, Japan time without an offset, or Unix seconds).")
    var asOf: String?

    func validate() throws {
        _ = try asOf.map { time throws(ValidationError) in try CatalogSupport.parseTime(time, option: "--as-of") }
    }

    /// The projection the command answers from: the current one, or the state as of `--as-of`.
    func projection(_ ledger: Ledger) throws -> CompletionsProjection {
        try CatalogSupport.projection(ledger, asOf: asOf)
    }
}
