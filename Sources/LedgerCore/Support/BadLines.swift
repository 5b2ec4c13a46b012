/// The bad lines of an input file that is checked whole before anything is written (a batch,
/// an import): every one is reported in one run, so a file is fixed in one pass instead of one
/// run per line. The first `shown` are listed, then how many more there are.
package struct BadLines: Sendable {
    package static let shown = 20

    package private(set) var errors: [LedgerError] = []

    package init() {}

    package var isEmpty: Bool { errors.isEmpty }

    package mutating func add(_ error: LedgerError) {
        errors.append(error)
    }

    /// Throws nothing when every line was good, the one error when one line was bad, and
    /// otherwise one sentence naming the count followed by a line per bad line (exit 65).
    package func check(source: String) throws {
        guard let first = errors.first else { return }
        guard errors.count > 1 else { throw first }
        var lines = errors.prefix(Self.shown).map(\.description)
        if errors.count > Self.shown { lines.append("… and \(errors.count - Self.shown) more") }
        throw LedgerError(.badInput, "\(errors.count) lines of \(source) are bad; nothing was written\n" + lines.joined(separator: "\n"))
    }
}
