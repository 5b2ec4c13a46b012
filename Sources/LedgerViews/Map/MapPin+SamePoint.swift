import LedgerCatalog
import LedgerCore

/// Stations that share a position (東京, 新宿, 博多 of several operators): a pin stands for all of
/// them, so that a completed one is never hidden under another (Schemas/map.md §7, `stations`).
extension MapPin {
    /// One station at a pin's position, keys sorted.
    struct SamePointStation: Encodable {
        var compDate: UInt32
        var completed: Bool
        var lines: [String]
        var name: String
        var `operator`: String
        var station: UInt32

        enum CodingKeys: String, CodingKey {
            case compDate = "comp_date", completed, lines, name, `operator`, station
        }
    }

    /// The pins of an answer; each pin whose position other enabled stations share (whatever the
    /// filter: `all` is every enabled station, as the report's and the app's maps list them) gets
    /// every station there, completed first, then by `s_id`.
    /// - Parameter stations: every enabled station of the catalogue (`CatalogStore.mapEntries`).
    package static func pins(_ answer: MapIndex.Answer, stations all: [MapIndex.Entry], catalog: CatalogStore,
                             compDate: (UInt32) -> UInt32) throws -> [MapPin] {
        struct Point: Hashable { var lat, lng: Int64 }
        var atPoint: [Point: [UInt32]] = [:]
        for pin in answer.pins { atPoint[Point(lat: pin.entry.lat, lng: pin.entry.lng)] = [] }
        for entry in all { atPoint[Point(lat: entry.lat, lng: entry.lng)]?.append(entry.id) }
        let wanted = answer.pins.map(\.entry.id) + atPoint.values.filter { $0.count > 1 }.flatMap { $0 }
        let stations = try catalog.geometryStations(Array(Set(wanted)).sorted())
        return answer.pins.compactMap { pin in
            guard let station = stations[pin.entry.id] else { return nil }
            var result = MapPin(station: station, zoom: answer.zoom, minZoom: pin.minZoom, compDate: compDate(station.id))
            let here = atPoint[Point(lat: pin.entry.lat, lng: pin.entry.lng)] ?? []
            if here.count > 1 {
                result.samePoint = here.compactMap { stations[$0] }
                    .map { (station: $0, compDate: compDate($0.id)) }
                    .sorted { ($0.compDate == 0 ? 1 : 0, $0.station.id) < ($1.compDate == 0 ? 1 : 0, $1.station.id) }
            }
            return result
        }
    }

    var samePointStations: [SamePointStation]? {
        samePoint.isEmpty ? nil : samePoint.map {
            SamePointStation(compDate: $0.compDate, completed: $0.compDate > 0, lines: $0.station.lines.map(\.name),
                             name: $0.station.name, operator: $0.station.operatorName, station: $0.station.id)
        }
    }
}
