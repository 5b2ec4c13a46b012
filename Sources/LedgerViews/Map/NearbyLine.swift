import LedgerCatalog
import LedgerCore

/// One station of `nearby`, as a JSON line (keys in docs/ledger-cli.md: station, name, lat, lng, comp_date,
/// completed, operator, lines, distance_m) or a line of text in the apps' words.
package struct NearbyLine: Encodable {
    var station: UInt32
    var name: String
    var lat, lng: Degrees
    var compDate: UInt32
    var completed: Bool
    var `operator`: String
    var lines: [String]
    /// Metres to one decimal.
    var distanceM: Double
    private var label: String
    private var date: CompletionDate

    enum CodingKeys: String, CodingKey {
        case station, name, lat, lng, compDate = "comp_date", completed, `operator`, lines, distanceM = "distance_m"
    }

    package init(_ hit: NearbyQuery.Hit, date: CompletionDate) {
        let s = hit.station
        (station, name, lat, lng, `operator`) = (s.id, s.name, Degrees(s.lat), Degrees(s.lng), s.operatorName)
        (compDate, completed, self.date) = (date.code, date.code > 0, date)
        lines = s.lines.map(\.name)
        distanceM = (hit.metres * 10).rounded() / 10
        label = GreatCircle.label(metres: hit.metres)
    }

    package func json() throws -> String { try OrderedJSONEncoder().encode(self) }

    package func text(_ language: OutputLanguage) -> String {
        "\(label)  \(station)  \(name)  \(`operator`)  \(lines.joined(separator: ","))  \(date.label(language))"
    }
}
