/// The one rule for matching typed text against stations' names and readings, shared with the
/// phone app (Conformance/name-search.jsonl checks both): the text and the catalogue's words
/// are folded alike (`StationNameFolding`: NFKC, case, ヶ/ケ/ヵ, and katakana read as hiragana
/// for readings), then compared by prefix, or anywhere with `partial`. Names keep their 駅, as
/// the apps' `LIKE 'word%'` did: `津` finds 津駅 and 津新町駅, `津駅` only 津駅 (and with
/// `partial`, every name ending in 津).
package struct StationTextMatch: Sendable {
    package enum Field: String, Sendable, CaseIterable {
        /// The station's name.
        case name
        /// The reading (yomi).
        case yomi
        /// Either of the two.
        case any
    }

    let name: String?
    let reading: String?
    let partial: Bool

    package init(_ text: String, field: Field, partial: Bool) {
        name = field == .yomi ? nil : StationNameFolding.fold(text)
        reading = field == .name ? nil : StationNameFolding.foldReading(text)
        self.partial = partial
    }

    /// Whether a station with this name and reading matches.
    package func matches(name stationName: String, yomi: String) -> Bool {
        if let name, !name.isEmpty, fits(name, StationNameFolding.fold(stationName)) { return true }
        if let reading, !reading.isEmpty, fits(reading, StationNameFolding.foldReading(yomi)) { return true }
        return false
    }

    private func fits(_ text: String, _ word: String) -> Bool {
        partial ? word.contains(text) : word.hasPrefix(text)
    }

    /// The enabled stations of `snapshot` that match, in `s_id` order.
    package func stations(in snapshot: CatalogSnapshot) -> [UInt32] {
        snapshot.stations.filter { $0.enabled && matches(name: $0.name, yomi: $0.yomi) }.map(\.id).sorted()
    }
}
