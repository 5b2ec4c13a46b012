import Foundation
import LedgerCore

/// The map's data: a compact JSON document the inline script draws from.
///
/// `{"ops": [operator names], "dates": {code: label}, "lines": [[l_id, name, op, completed 0|1,
/// [station indices in s_sort order]]], "st": [[s_id, name, op, x, y, comp_date, memo]]}` — x and y are a
/// plate carrée projection scaled by cos 36° (Japan's middle latitude) in thousandths of a degree,
/// y growing southwards as SVG's does; `op` indexes `ops`; a station's lines are found through
/// `lines`. Dates carry their label in the report's language, so the script has no wording of its own.
extension ReportPage {
    struct MapData {
        var json: String
        var viewBox: String
        var lines: Int
        var completedLines: Int
    }

    private static let xScale = cos(36.0 * Double.pi / 180)

    static func project(_ station: CatalogGeometry.Station) -> (x: Int, y: Int) {
        (Int((Double(station.lng) / 1000 * xScale).rounded()), Int((-Double(station.lat) / 1000).rounded()))
    }

    func mapData() -> MapData {
        var operators: [Int64: Int] = [:]
        var operatorNames: [String] = []
        func op(_ id: Int64, _ name: String) -> Int {
            if let index = operators[id] { return index }
            operators[id] = operatorNames.count
            operatorNames.append(name)
            return operatorNames.count - 1
        }
        var index: [UInt32: Int] = [:]
        var stations: [String] = []
        var labels: [UInt32: String] = [:]
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        for (i, s) in geometry.stations.enumerated() {
            index[s.id] = i
            let (x, y) = Self.project(s)
            (minX, minY, maxX, maxY) = (min(minX, x), min(minY, y), max(maxX, x), max(maxY, y))
            let date = compDate(s.id)
            if date > 0, labels[date] == nil {
                labels[date] = ((try? CompletionDate(code: date)) ?? .unknown).label(language)
            }
            let memo = projection.row(s.id)?.memo ?? ""
            stations.append("[\(s.id),\(JSONText.quoted(s.name)),\(op(s.operatorID, s.operatorName)),\(x),\(y),\(date),\(JSONText.quoted(memo))]")
        }
        var completedLines = 0
        let lines = geometry.lines.map { line -> String in
            let done = !line.stations.isEmpty && line.stations.allSatisfy { compDate($0) > 0 }
            if done { completedLines += 1 }
            let members = line.stations.compactMap { index[$0].map(String.init) }.joined(separator: ",")
            return "[\(line.id),\(JSONText.quoted(line.name)),\(op(line.operatorID, line.operatorName)),\(done ? 1 : 0),[\(members)]]"
        }
        let dates = labels.keys.sorted().map { "\"\($0)\":\(JSONText.quoted(labels[$0]!))" }
        let json = "{\"ops\":[" + operatorNames.map(JSONText.quoted).joined(separator: ",")
            + "],\n\"dates\":{" + dates.joined(separator: ",") + "},\n\"none\":" + JSONText.quoted(words.notCompleted)
            + ",\n\"lines\":[" + lines.joined(separator: ",\n") + "],\n\"st\":[" + stations.joined(separator: ",\n") + "]}"
        if stations.isEmpty { (minX, minY, maxX, maxY) = (0, 0, 1000, 1000) }
        let margin = max(200, (maxX - minX) / 40)
        let viewBox = "\(minX - margin) \(minY - margin) \(maxX - minX + 2 * margin) \(maxY - minY + 2 * margin)"
        return MapData(json: json, viewBox: viewBox, lines: geometry.lines.count, completedLines: completedLines)
    }
}
