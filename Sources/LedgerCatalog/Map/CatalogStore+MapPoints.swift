import Foundation
import GRDB

/// The map's two light reads: every enabled station's position and weight for the index, then the
/// details of the few stations shown. Together they cost a fraction of `CatalogGeometry.load`,
/// which reads every name, line and membership (the pin query's whole-process time).
extension CatalogStore {
    /// Every enabled station as the pin rule sees it: id, position and weight.
    package func mapEntries() throws -> [MapIndex.Entry] {
        try read { db in
            var entries: [MapIndex.Entry] = []
            let rows = try Row.fetchCursor(db, sql: "SELECT s_id, lat, lng, weight FROM stations WHERE enabled = 1")
            while let row = try rows.next() {
                let id = row.integer("s_id")
                guard id > 0, id <= Int64(UInt32.max) else { continue }
                entries.append(MapIndex.Entry(id: UInt32(id), lat: row.integer("lat"), lng: row.integer("lng"), weight: row.integer("weight")))
            }
            return entries
        }
    }

    /// The enabled stations `ids` as `CatalogGeometry` describes them (lines: enabled, `l_id` order).
    package func geometryStations(_ ids: [UInt32]) throws -> [UInt32: CatalogGeometry.Station] {
        guard !ids.isEmpty else { return [:] }
        // A long IN list makes SQLite slower than reading every row and keeping the wanted ones.
        let wanted = Set(ids)
        let filter = ids.count <= 1_000 ? " AND s.s_id IN (\(ids.map(String.init).joined(separator: ",")))" : ""
        let lineFilter = filter.replacingOccurrences(of: "s.s_id", with: "sl.s_id")
        return try read { db in
            var stations: [UInt32: CatalogGeometry.Station] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT s.s_id, s.station, s.yomi, s.o_id, COALESCE(o.operator, '') AS operator, s.pref, s.lat, s.lng, s.weight
                FROM stations s LEFT JOIN operators o ON o.o_id = s.o_id WHERE s.enabled = 1\(filter)
                """) {
                guard let id = UInt32(exactly: row.integer("s_id")), wanted.contains(id) else { continue }
                stations[id] = CatalogGeometry.Station(
                    id: id, name: row.text("station"), yomi: row.text("yomi"), operatorID: row.integer("o_id"),
                    operatorName: row.text("operator"), pref: row.integer("pref"), lat: row.integer("lat"), lng: row.integer("lng"),
                    weight: row.integer("weight"), lines: [])
            }
            guard try db.tableExists("stations_lines") else { return stations }
            for row in try Row.fetchAll(db, sql: """
                SELECT DISTINCT sl.s_id, l.l_id, l.line FROM stations_lines sl JOIN lines l ON l.l_id = sl.l_id
                WHERE l.enabled = 1\(lineFilter) ORDER BY l.l_id
                """) {
                guard let id = UInt32(exactly: row.integer("s_id")) else { continue }
                stations[id]?.lines.append(CatalogGeometry.LineRef(id: row.integer("l_id"), name: row.text("line")))
            }
            return stations
        }
    }
}
