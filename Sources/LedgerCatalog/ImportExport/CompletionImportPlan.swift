import LedgerCore

/// What an import of the original apps' completions will do: the events to append and what it
/// had to say about the rows (Schemas/import-export.md).
package struct CompletionImportPlan: Sendable {
    package var drafts: [StationEditDraft] = []
    /// Rows that passed validation (with `--skip-invalid`, the others are in `skipped`).
    package var validRows = 0
    /// Rows refused under `--skip-invalid`, each with its reason and line.
    package var skipped: [LedgerError] = []
    /// Rows whose `update_date` was later than the import time (a device with a skewed clock):
    /// their events carry the import time instead, so the ledger's clock never runs ahead.
    package var clampedToImportTime = 0
    /// Rows whose `comp_date` the apps display as 日付不明 (2…18999999), imported as 1.
    package var unknownDates: [CompletionRow] = []

    package init() {}
}
