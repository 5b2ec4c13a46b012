import LedgerCore

/// One event of `history --format jsonl` (and `replay`'s records other than station edits) as a
/// JSON line, keys in this order, absent ones left out (docs/ledger-cli.md "replay"). `replay`'s station
/// edits go through `EventLineWriter`, the one streaming writer, byte for byte the same.
struct EventLineOutput: Encodable {
    var device, device_name: String
    var seq, hlc: UInt64
    var time: String
    var station: UInt32?
    var comp_date: UInt32?
    var memo: String?
    var kind: String?
    var catalog_version: UInt32?
    var knowledge: Knowledge?
    var origin: String?

    init(_ view: RecordView, deviceName: String) {
        (device, device_name, seq) = (view.device.description, deviceName, view.seq)
        (hlc, time) = (view.hlc.rawValue, view.hlc.description)
        switch view.kind {
        case .stationEdit:
            station = view.station
            comp_date = view.hasCompDate ? view.compDateCode : nil
            memo = view.memo
            origin = "\(view.origin)"
        case .catalogVersion:
            kind = "catalog_version"
            catalog_version = view.catalogVersion
            origin = "catalog"
        case .deviceName:
            kind = "device_name"
        case .knowledgeMark:
            kind = "knowledge_mark"
            knowledge = Knowledge(entries: (0..<view.knowledgeCount).map {
                let entry = view.knowledgeEntry($0)
                return (entry.device.description, entry.seq)
            })
        }
    }

    func line() throws -> String { try OrderedJSONEncoder().encode(self) }

    /// A knowledge mark's `{"DEVICE": seq, …}` in the record's order.
    struct Knowledge: Encodable {
        var entries: [(device: String, seq: UInt64)]

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: DeviceKey.self)
            for entry in entries { try container.encode(entry.seq, forKey: DeviceKey(stringValue: entry.device)) }
        }

        struct DeviceKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
    }
}
