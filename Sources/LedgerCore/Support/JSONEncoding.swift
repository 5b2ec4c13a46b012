import Foundation

/// The project's three ways of writing JSON with Foundation, each setting named once: every
/// `JSONEncoder` in the sources comes from here (`OrderedJSONEncoder` writes the documents whose
/// key order people's scripts see: the CLI's JSON Lines and GeoJSON).
package enum JSONEncoding: Sendable {
    /// Compact, keys sorted: request and answer bodies (Schemas/sync-api.yaml), record-frame
    /// headers, and state files only this code reads. Sorted keys make equal values equal bytes.
    case compact
    /// Compact, keys sorted, `/` left as is: what the CLI prints and the catalogue document,
    /// which hold URLs and paths a person reads.
    case readable
    /// Pretty-printed, keys sorted: files an operator may open and diff (ledger.json,
    /// users.json, sync-state.json).
    case file

    /// A new encoder with this style's settings (a `JSONEncoder` is not safe to share between
    /// threads while its settings could change, so each use makes its own).
    package var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        switch self {
        case .compact: encoder.outputFormatting = [.sortedKeys]
        case .readable: encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        case .file: encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        }
        return encoder
    }

    /// `value`'s bytes in this style.
    package func encode(_ value: some Encodable) throws -> [UInt8] {
        Array(try encoder.encode(value))
    }
}
