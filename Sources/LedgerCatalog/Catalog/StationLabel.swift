import LedgerCore

/// How every human-readable answer names a station: `s_id  name  operator  lines` (enabled lines,
/// comma-separated), as `station find` prints it, so that three 新宿駅 read apart. A station the
/// catalogue does not know (or a ledger without a catalogue) is its bare `s_id`.
package struct StationLabel: Sendable {
    private let snapshot: CatalogSnapshot?
    /// Each station's enabled lines, joined: `CatalogSnapshot.lines(of:)` scans every membership,
    /// and `conflicts` may name thousands of stations.
    private let lines: [UInt32: String]

    package init(_ snapshot: CatalogSnapshot?) {
        self.snapshot = snapshot
        var lines: [UInt32: [CatalogLine]] = [:]
        for m in snapshot?.memberships ?? [] {
            if let line = snapshot?.line(m.lineID), line.enabled { lines[m.stationID, default: []].append(line) }
        }
        self.lines = lines.mapValues { $0.sorted { $0.id < $1.id }.map(\.name).joined(separator: ",") }
    }

    /// The labels of a ledger's catalogue, or bare ids when it has none (or cannot be read:
    /// a label never makes a command fail).
    package init(ledger: Ledger) {
        let store = try? CatalogStore.open(ledgerDirectory: ledger.directory)
        defer { store?.close() }
        self.init(try? store?.loadSnapshot())
    }

    /// The station's name, when the catalogue knows it.
    package func name(_ id: UInt32) -> String? { snapshot?.station(id)?.name }

    /// `s_id  name  operator  lines`, with the reading after the name when `reading` is set
    /// (`station find`); the bare `s_id` for a station the catalogue does not know.
    package func text(_ id: UInt32, reading: Bool = false) -> String {
        guard let snapshot, let s = snapshot.station(id) else { return String(id) }
        let op = snapshot.operator(s.operatorID)?.name ?? ""
        return ([String(id), s.name] + (reading ? [s.yomi] : []) + [op, lines[id] ?? ""]).joined(separator: "  ")
    }
}
