/// An event that sets the completion date and/or the memo of one station.
///
/// Record kind 1 in the segment format (Schemas/segment-format.md).
package struct StationEdit: Hashable, Sendable {
    package var id: EventID
    package var hlc: HybridTimestamp
    /// The catalogue's `s_id`.
    package var station: UInt32
    /// The new completion date, or `nil` when the event leaves it alone.
    package var compDate: CompletionDate?
    /// The new memo, or `nil` when the event leaves it alone. `""` clears the memo.
    package var memo: String?
    package var origin: EventOrigin

    package init(id: EventID, hlc: HybridTimestamp, station: UInt32, compDate: CompletionDate?,
                 memo: String?, origin: EventOrigin) {
        (self.id, self.hlc, self.station, self.compDate, self.memo, self.origin) = (id, hlc, station, compDate, memo, origin)
    }

    /// The largest memo, in UTF-8 bytes.
    package static let maximumMemoBytes = 4096
}

/// A station edit before the ledger gives it an identity and a clock value.
package struct StationEditDraft: Hashable, Sendable {
    package var station: UInt32
    package var compDate: CompletionDate?
    package var memo: String?
    package var origin: EventOrigin
    /// A fixed clock value (imports keep the original `update_date`); `nil` means "now".
    package var hlc: HybridTimestamp?

    package init(station: UInt32, compDate: CompletionDate? = nil, memo: String? = nil,
                 origin: EventOrigin = .user, hlc: HybridTimestamp? = nil) {
        (self.station, self.compDate, self.memo, self.origin, self.hlc) = (station, compDate, memo, origin, hlc)
    }
}

/// An event recording that the ledger applied station catalogue version `version`.
///
/// Record kind 2. Replicas that merge the log learn which catalogue their events assume.
package struct CatalogVersionEvent: Hashable, Sendable {
    package var id: EventID
    package var hlc: HybridTimestamp
    package var version: UInt32
    package init(id: EventID, hlc: HybridTimestamp, version: UInt32) {
        (self.id, self.hlc, self.version) = (id, hlc, version)
    }
}

/// The human name of a device. Record kind 3; it carries no seq (it is not an edit), and the name
/// with the highest hlc wins.
package struct DeviceNameRecord: Hashable, Sendable {
    package var device: DeviceID
    package var hlc: HybridTimestamp
    package var name: String
    /// The longest name, in UTF-8 bytes.
    package static let maximumNameBytes = 255

    package init(device: DeviceID, hlc: HybridTimestamp, name: String) {
        (self.device, self.hlc, self.name) = (device, hlc, name)
    }
}

/// What a device had seen when it wrote this mark: its version vector {device → highest
/// contiguous seq held} right after a merge or sync brought it station edits. Record kind 4; it
/// takes the next seq of its device, so it replicates like any event. Conflict detection reads
/// these marks to decide whether one edit was made after seeing another (Schemas/merge.md).
package struct KnowledgeMark: Hashable, Sendable {
    package var id: EventID
    package var hlc: HybridTimestamp
    /// Seqs held per device (the writing device itself may be left out: its own earlier
    /// seqs are always known).
    package var knowledge: [DeviceID: UInt64]
    package init(id: EventID, hlc: HybridTimestamp, knowledge: [DeviceID: UInt64]) {
        (self.id, self.hlc, self.knowledge) = (id, hlc, knowledge)
    }

    /// The body length field is a u16: (65535 - 28) / 16 entries fit.
    package static let maximumEntries = 4094

    /// The entries as encoded: ascending device, zero seqs dropped, at most `maximumEntries`
    /// (keeping fewer only under-states knowledge, which can report a conflict but never hides one).
    package var sortedEntries: [(DeviceID, UInt64)] {
        Array(knowledge.filter { $0.value > 0 && $0.key.rawValue != 0 }
            .sorted { $0.key < $1.key }.prefix(Self.maximumEntries).map { ($0.key, $0.value) })
    }
}

/// One record of the log.
package enum LedgerRecord: Hashable, Sendable {
    case stationEdit(StationEdit)
    case catalogVersion(CatalogVersionEvent)
    case deviceName(DeviceNameRecord)
    case knowledgeMark(KnowledgeMark)

    /// The event identity, for the kinds that have one.
    package var eventID: EventID? {
        switch self {
        case .stationEdit(let e): return e.id
        case .catalogVersion(let e): return e.id
        case .knowledgeMark(let m): return m.id
        case .deviceName: return nil
        }
    }

    /// The device that wrote the record (every kind has one).
    package var device: DeviceID {
        if case .deviceName(let name) = self { return name.device }
        return eventID!.device
    }

    package var hlc: HybridTimestamp {
        switch self {
        case .stationEdit(let e): return e.hlc
        case .catalogVersion(let e): return e.hlc
        case .deviceName(let r): return r.hlc
        case .knowledgeMark(let m): return m.hlc
        }
    }
}
