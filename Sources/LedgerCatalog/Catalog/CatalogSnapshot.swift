/// The whole catalogue in memory (about 10,000 stations), indexed for the statistics and the
/// station commands.
package struct CatalogSnapshot: Sendable {
    package var version: Int64
    package var operators: [CatalogOperator] = []
    package var lines: [CatalogLine] = []
    package var stations: [CatalogStation] = []
    /// `stations_lines`, ordered by line, then `s_sort`.
    package var memberships: [CatalogMembership] = []

    private(set) var operatorIndex: [Int64: Int] = [:]
    private(set) var lineIndex: [Int64: Int] = [:]
    private(set) var stationIndex: [UInt32: Int] = [:]

    package init(version: Int64) { self.version = version }

    mutating func index() {
        operatorIndex = Dictionary(operators.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        lineIndex = Dictionary(lines.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        stationIndex = Dictionary(stations.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
    }

    package func station(_ id: UInt32) -> CatalogStation? { stationIndex[id].map { stations[$0] } }
    package func line(_ id: Int64) -> CatalogLine? { lineIndex[id].map { lines[$0] } }
    package func `operator`(_ id: Int64) -> CatalogOperator? { operatorIndex[id].map { operators[$0] } }

    /// The lines a station is on, in `l_id` order.
    package func lines(of station: UInt32) -> [CatalogLine] {
        memberships.filter { $0.stationID == station }.compactMap { line($0.lineID) }.sorted { $0.id < $1.id }
    }

    /// Whether a station counts in the statistics: the station is enabled, its operator is
    /// enabled, and it is on at least one enabled line (Schemas/domain-rules.md §17; with the real catalogues
    /// the last two conditions exclude nothing). Disabled stations keep their history but are
    /// counted nowhere.
    package func countableStations() -> Set<UInt32> {
        var onEnabledLine = Set<UInt32>()
        for m in memberships where line(m.lineID)?.enabled == true { onEnabledLine.insert(m.stationID) }
        var result = Set<UInt32>()
        for s in stations where s.enabled && self.operator(s.operatorID)?.enabled == true && onEnabledLine.contains(s.id) {
            result.insert(s.id)
        }
        return result
    }
}
