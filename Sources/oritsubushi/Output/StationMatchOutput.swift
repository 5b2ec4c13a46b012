import LedgerCore

/// One line of `station find --json` (docs/ledger-cli.md "station find"), keys in this order.
struct StationMatchOutput: Encodable {
    var station: UInt32
    var name, yomi, `operator`: String
    var lines: [String]
    var enabled: Bool
    var comp_date: UInt32

    func line() throws -> String { try OrderedJSONEncoder().encode(self) }
}
