import Foundation
import LedgerCatalog
import LedgerCore

/// The map's data: a compact JSON document the report's map module (Resources/report/map.js) draws from.
///
/// `{"ops": [operator names], "dates": {code: label}, "none": label, "lines": [[l_id, name, op,
/// completed 0|1, [station indices in s_sort order]]], "st": [[s_id, name, op, x, y, comp_date, memo]]}`
/// — x and y are a plate carrée projection scaled by cos 36° (Japan's middle latitude) in
/// thousandths of a degree, y growing southwards as SVG's does; `op` indexes `ops`; a station's
/// lines are found through `lines`. Dates carry their label in the report's language, so the
/// script has no wording of its own. One line and one station per line of text.
extension ReportPage {
    struct MapData {
        var json: String
        var viewBox: String
        var lines: Int
        var completedLines: Int
    }

    struct MapDocument: Encodable {
        var ops: [String] = []
        var dates = DateLabels()
        var none: String
        var lines: [LineRow] = []
        var st: [StationRow] = []
    }

    /// Labels by date code, in code order.
    struct DateLabels: Encodable {
        var labels: [UInt32: String] = [:]

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for code in labels.keys.sorted() { try container.encode(labels[code]!, forKey: Key(stringValue: "\(code)")) }
        }
    }

    struct LineRow: Encodable {
        var id: Int64, name: String, op: Int, completed: Bool, stations: [Int]

        func encode(to encoder: any Encoder) throws {
            var row = encoder.unkeyedContainer()
            try row.encode(id); try row.encode(name); try row.encode(op); try row.encode(completed ? 1 : 0); try row.encode(stations)
        }
    }

    struct StationRow: Encodable {
        var id: UInt32, name: String, op: Int, x: Int, y: Int, compDate: UInt32, memo: String

        func encode(to encoder: any Encoder) throws {
            var row = encoder.unkeyedContainer()
            try row.encode(id); try row.encode(name); try row.encode(op); try row.encode(x); try row.encode(y)
            try row.encode(compDate); try row.encode(memo)
        }
    }

    private static let xScale = cos(36.0 * Double.pi / 180)

    static func project(_ station: CatalogGeometry.Station) -> (x: Int, y: Int) {
        (Int((Double(station.lng) / 1000 * xScale).rounded()), Int((-Double(station.lat) / 1000).rounded()))
    }

    func mapData() throws -> MapData {
        var document = MapDocument(none: words.notCompleted)
        var operators: [Int64: Int] = [:]
        func op(_ id: Int64, _ name: String) -> Int {
            if let index = operators[id] { return index }
            operators[id] = document.ops.count
            document.ops.append(name)
            return document.ops.count - 1
        }
        var index: [UInt32: Int] = [:]
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        for (i, s) in geometry.stations.enumerated() {
            index[s.id] = i
            let (x, y) = Self.project(s)
            (minX, minY, maxX, maxY) = (min(minX, x), min(minY, y), max(maxX, x), max(maxY, y))
            let date = compDate(s.id)
            if date > 0, document.dates.labels[date] == nil {
                document.dates.labels[date] = ((try? CompletionDate(code: date)) ?? .unknown).label(language)
            }
            document.st.append(StationRow(id: s.id, name: s.name, op: op(s.operatorID, s.operatorName), x: x, y: y,
                                          compDate: date, memo: projection.row(s.id)?.memo ?? ""))
        }
        var completedLines = 0
        for line in geometry.lines {
            let done = !line.stations.isEmpty && line.stations.allSatisfy { compDate($0) > 0 }
            if done { completedLines += 1 }
            document.lines.append(LineRow(id: line.id, name: line.name, op: op(line.operatorID, line.operatorName),
                                          completed: done, stations: line.stations.compactMap { index[$0] }))
        }
        if document.st.isEmpty { (minX, minY, maxX, maxY) = (0, 0, 1000, 1000) }
        let margin = max(200, (maxX - minX) / 40)
        let viewBox = "\(minX - margin) \(minY - margin) \(maxX - minX + 2 * margin) \(maxY - minY + 2 * margin)"
        let json = try OrderedJSONEncoder(linePerElement: ["lines", "st"]).encode(document)
        return MapData(json: json, viewBox: viewBox, lines: geometry.lines.count, completedLines: completedLines)
    }
}
