import Foundation
import LedgerCore

/// Local UI state of this device, kept in the ledger directory as `ui-state.json` (not in the
/// log, never merged or synced): the date given to the last successful `complete` or `today`,
/// which the DATE keyword `last` repeats, as the original apps keep the date picker's value for
/// entering many stations in a row. The file names the device it belongs to, so a copied ledger
/// directory does not lend its date to another device. Written atomically through the
/// FileSystem seam.
struct UIState: Codable, Equatable {
    static let fileName = "ui-state.json"

    var device: String
    var lastDate: String

    enum CodingKeys: String, CodingKey {
        case device
        case lastDate = "last_date"
    }

    /// The date `last` stands for, or the documented refusal (exit 65) when there is none.
    static func lastDate(in ledger: Ledger, today: CalendarDay) throws -> CompletionDate {
        let path = Path.join(ledger.directory, fileName)
        let state = ledger.fileSystem.fileExists(path)
            ? (try? JSONDecoder().decode(UIState.self, from: Data(ledger.fileSystem.readFile(path)))) : nil
        guard let state, state.device == ledger.localDevice.description,
              let date = try? CompletionDate(parsing: state.lastDate, today: today), date.isCompleted else {
            throw LedgerError(.badInput, "there is no previous date for 'last': no complete or today has succeeded on this device yet")
        }
        return date
    }

    /// Remembers `date` for `last`. The edit it belongs to is already durable, so a failure here
    /// is a warning, not a failed command.
    static func remember(_ date: CompletionDate, in ledger: Ledger) {
        guard date.isCompleted else { return }
        let state = UIState(device: ledger.localDevice.description, lastDate: date.description)
        do {
            let bytes = try JSONEncoding.compact.encode(state) + Array("\n".utf8)
            try ledger.fileSystem.writeAtomically(Path.join(ledger.directory, fileName), bytes)
        } catch {
            Terminal.error("warning: the date was recorded but could not be remembered for 'last': \(error)")
        }
    }
}
