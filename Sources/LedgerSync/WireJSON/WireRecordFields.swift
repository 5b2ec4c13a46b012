/// The fields of one record as `WireJSONReader` reads them: each known key at most once (a
/// repeated or unknown key, or a value of the wrong shape, leaves the body to Foundation).
struct WireRecordFields {
    private var seen: UInt16 = 0
    private var kind, device, hlc: String?
    private var seq: UInt64?
    private var station, compDate, catalogVersion: UInt32?
    private var memo, origin, name: String?
    private var knowledge: [String: UInt64]?

    /// Reads the value of key `name`; false when it is not the plain shape.
    mutating func read(_ name: String, from reader: inout WireJSONReader) -> Bool {
        guard let bit = Self.keys[name], seen & bit == 0 else { return false }
        seen |= bit
        switch name {
        case "kind": return Self.assign(&kind, reader.optionalString())
        case "device": return Self.assign(&device, reader.optionalString())
        case "hlc": return Self.assign(&hlc, reader.optionalString())
        case "memo": return Self.assign(&memo, reader.optionalString())
        case "origin": return Self.assign(&origin, reader.optionalString())
        case "name": return Self.assign(&self.name, reader.optionalString())
        case "seq": return Self.assign(&seq, reader.optionalInteger(max: .max))
        case "station": return Self.assign(&station, reader.optionalInteger(max: UInt64(UInt32.max)).map { $0.map { UInt32($0) } })
        case "comp_date": return Self.assign(&compDate, reader.optionalInteger(max: UInt64(UInt32.max)).map { $0.map { UInt32($0) } })
        case "catalog_version": return Self.assign(&catalogVersion, reader.optionalInteger(max: UInt64(UInt32.max)).map { $0.map { UInt32($0) } })
        default: return Self.assign(&knowledge, reader.optionalKnowledge())
        }
    }

    /// The record, or nil when a required key is missing or null.
    func record() -> WireRecord? {
        guard let kind, let device, let hlc else { return nil }
        return WireRecord(kind: kind, device: device, seq: seq, hlc: hlc, station: station, compDate: compDate, memo: memo,
                          origin: origin, catalogVersion: catalogVersion, name: name, knowledge: knowledge)
    }

    private static func assign<T>(_ field: inout T?, _ value: T??) -> Bool {
        guard let value else { return false }
        field = value
        return true
    }

    private static let keys: [String: UInt16] = [
        "kind": 1, "device": 2, "hlc": 4, "memo": 8, "origin": 16, "name": 32, "seq": 64, "station": 128,
        "comp_date": 256, "catalog_version": 512, "knowledge": 1024,
    ]
}

extension WireRecord {
    /// Every field as given (the reader's records, and tests' random ones).
    package init(kind: String, device: String, seq: UInt64?, hlc: String, station: UInt32?, compDate: UInt32?, memo: String?,
                 origin: String?, catalogVersion: UInt32?, name: String?, knowledge: [String: UInt64]?) {
        (self.kind, self.device, self.seq, self.hlc) = (kind, device, seq, hlc)
        (self.station, self.compDate, self.memo, self.origin) = (station, compDate, memo, origin)
        (self.catalogVersion, self.name, self.knowledge) = (catalogVersion, name, knowledge)
    }
}
