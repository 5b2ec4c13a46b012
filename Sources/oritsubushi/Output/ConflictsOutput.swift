import LedgerCatalog
import LedgerCore
import LedgerSync

/// `conflicts --json`: `{"count", "conflicts": [{"station", "name", "field", "winner", "loser"}]}`
/// (`name` is null for a station the catalogue does not know), each
/// side with device, device_name, seq, hlc, time and value, plus comp_date for dates
/// (the command's help; `JSONOutput` writes it).
struct ConflictsOutput: Encodable {
    struct Item: Encodable {
        var station: UInt32
        @NullWhenAbsent var name: String?
        var field: String
        var winner, loser: Side
    }

    struct Side: Encodable {
        var device, deviceName: String
        var seq: UInt64
        var hlc, time, value: String
        /// Only for a date conflict: left out (not null) for a memo.
        var compDate: UInt32?

        enum CodingKeys: String, CodingKey {
            case device, deviceName = "device_name", seq, hlc, time, value, compDate = "comp_date"
        }
    }

    var count: Int
    var conflicts: [Item]

    init(_ conflicts: [Conflict], names: [DeviceID: String], labels: StationLabel) {
        count = conflicts.count
        self.conflicts = conflicts.map { c in
            func side(_ s: Conflict.Side) -> Side {
                Side(device: s.id.device.description, deviceName: names[s.id.device] ?? "", seq: s.id.seq,
                     hlc: String(s.hlc.rawValue), time: s.hlc.description, value: ConflictText.value(s, c.field),
                     compDate: c.field == .date ? s.compDateCode ?? 0 : nil)
            }
            return Item(station: c.station, name: labels.name(c.station), field: c.field.rawValue, winner: side(c.winner), loser: side(c.loser))
        }
    }
}
