import Foundation
import LedgerCore

/// The JSON form of a record on the sync API (Schemas/sync-api.yaml, `Record`).
///
/// `device` is 16 lowercase hex digits; `hlc` is the 64-bit hybrid timestamp as a decimal
/// string (it exceeds 2^53, which JSON numbers in many languages cannot hold exactly).
package struct WireRecord: Codable, Sendable, Equatable {
    package var kind: String
    package var device: String
    package var seq: UInt64?
    package var hlc: String
    package var station: UInt32?
    package var compDate: UInt32?
    package var memo: String?
    package var origin: String?
    package var catalogVersion: UInt32?
    package var name: String?
    package var knowledge: [String: UInt64]?

    enum CodingKeys: String, CodingKey {
        case kind, device, seq, hlc, station, memo, origin, name, knowledge
        case compDate = "comp_date"
        case catalogVersion = "catalog_version"
    }

    package static let stationEdit = "station_edit"
    package static let catalogVersionKind = "catalog_version"
    package static let deviceNameKind = "device_name"
    package static let knowledgeMarkKind = "knowledge_mark"

    package init(_ record: LedgerRecord) {
        switch record {
        case .stationEdit(let e):
            self.init(kind: Self.stationEdit, device: e.id.device.description, seq: e.id.seq, hlc: String(e.hlc.rawValue))
            station = e.station
            compDate = e.compDate?.code
            memo = e.memo
            origin = e.origin.description
        case .catalogVersion(let e):
            self.init(kind: Self.catalogVersionKind, device: e.id.device.description, seq: e.id.seq, hlc: String(e.hlc.rawValue))
            catalogVersion = e.version
        case .deviceName(let r):
            self.init(kind: Self.deviceNameKind, device: r.device.description, seq: nil, hlc: String(r.hlc.rawValue))
            name = r.name
        case .knowledgeMark(let m):
            self.init(kind: Self.knowledgeMarkKind, device: m.id.device.description, seq: m.id.seq, hlc: String(m.hlc.rawValue))
            knowledge = Dictionary(uniqueKeysWithValues: m.sortedEntries.map { ($0.0.description, $0.1) })
        }
    }

    private init(kind: String, device: String, seq: UInt64?, hlc: String) {
        (self.kind, self.device, self.seq, self.hlc) = (kind, device, seq, hlc)
    }

    /// Decodes and validates; every failure is a `.badInput` error naming the field.
    package func record() throws -> LedgerRecord {
        guard let device = WireGrammar.device(device) else { throw bad("device '\(device)' is not a device id (16 lowercase hex digits, not all zero)") }
        guard let raw = WireGrammar.hlc(hlc) else { throw bad("hlc '\(hlc)' is not a decimal integer without leading zeros below 18000000000000000000") }
        let hlc = HybridTimestamp(rawValue: raw)
        func eventID() throws -> EventID {
            guard let seq, seq > 0 else { throw bad("a \(kind) record needs a positive seq") }
            return EventID(device: device, seq: seq)
        }
        switch kind {
        case Self.stationEdit:
            let id = try eventID()
            guard let station, station > 0 else { throw bad("event \(id) needs a positive station") }
            var date: CompletionDate?
            if let compDate {
                do { date = try CompletionDate(code: compDate) } catch {
                    throw bad("event \(id) has an invalid comp_date \(compDate): \(error.description)")
                }
            }
            guard date != nil || memo != nil else { throw bad("event \(id) sets neither comp_date nor memo") }
            if let memo, memo.utf8.count > StationEdit.maximumMemoBytes {
                throw bad("event \(id) has a memo over \(StationEdit.maximumMemoBytes) bytes")
            }
            let origin = try origin.map { text -> EventOrigin in
                guard let o = EventOrigin.allCases.first(where: { $0.description == text }) else {
                    throw bad("event \(id) has an unknown origin '\(text)'")
                }
                return o
            } ?? .user
            return .stationEdit(StationEdit(id: id, hlc: hlc, station: station, compDate: date, memo: memo, origin: origin))
        case Self.catalogVersionKind:
            let id = try eventID()
            guard let catalogVersion else { throw bad("event \(id) needs catalog_version") }
            return .catalogVersion(CatalogVersionEvent(id: id, hlc: hlc, version: catalogVersion))
        case Self.deviceNameKind:
            guard let name, !name.isEmpty, name.utf8.count <= DeviceNameRecord.maximumNameBytes else {
                throw bad("a device_name record needs a name of 1 to \(DeviceNameRecord.maximumNameBytes) bytes")
            }
            return .deviceName(DeviceNameRecord(device: device, hlc: hlc, name: name))
        case Self.knowledgeMarkKind:
            let id = try eventID()
            var entries: [DeviceID: UInt64] = [:]
            for (key, value) in knowledge ?? [:] {
                guard let d = WireGrammar.device(key), value > 0 else { throw bad("event \(id) has a bad knowledge entry '\(key)'") }
                entries[d] = value
            }
            guard entries.count <= KnowledgeMark.maximumEntries else { throw bad("event \(id) has too many knowledge entries") }
            return .knowledgeMark(KnowledgeMark(id: id, hlc: hlc, knowledge: entries))
        default:
            throw bad("unknown record kind '\(kind)'")
        }
    }

    private func bad(_ message: String) -> LedgerError { LedgerError(.badInput, message, cause: .malformedRecord) }
}

/// Version vectors on the wire: {"<device hex>": seq}.
package enum WireVersionVector {
    package static func encode(_ vv: [DeviceID: UInt64]) -> [String: UInt64] {
        Dictionary(uniqueKeysWithValues: vv.map { ($0.key.description, $0.value) })
    }

    package static func decode(_ wire: [String: UInt64]) throws -> [DeviceID: UInt64] {
        var vv: [DeviceID: UInt64] = [:]
        for (key, value) in wire {
            guard let device = WireGrammar.device(key) else {
                throw LedgerError(.badInput, "version vector key '\(key)' is not a device id (16 lowercase hex digits, not all zero)")
            }
            vv[device] = value
        }
        return vv
    }
}

extension EncodedRecords {
    /// The records as the JSON API carries them.
    package var wireRecords: [WireRecord] {
        var records: [WireRecord] = []
        records.reserveCapacity(count)
        forEach { records.append(WireRecord($0.record)) }
        return records
    }
}
