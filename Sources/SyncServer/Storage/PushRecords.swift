import LedgerCore
import LedgerSync

/// A push's records from the wire, refused as both stores refuse them: too many (413), or one
/// that is not a valid record (422, naming its index).
package enum PushRecords {
    /// A JSON push's records, encoded.
    package static func decode(_ request: PushRequest, maximum: Int) throws -> EncodedRecords {
        try checkCount(request.records.count, maximum: maximum)
        var records = EncodedRecords()
        for (index, item) in request.records.enumerated() {
            do { records.append(try item.record()) } catch let error as LedgerError {
                throw SyncServerError(.unprocessable, "record \(index): \(error.message)")
            }
        }
        return records
    }

    /// A frames push's records: the count, and the checks `WireRecord.record()` makes of what a
    /// well-formed record can still hold (frames hold only well-formed records).
    package static func check(_ records: EncodedRecords, maximum: Int) throws {
        try checkCount(records.count, maximum: maximum)
        var index = 0
        try records.forEach { view in
            func refuse(_ why: String) -> SyncServerError { SyncServerError(.unprocessable, "record \(index): \(why)") }
            if view.device.rawValue == 0 { throw refuse("device 0000000000000000 is not a device id (not all zero)") }
            if view.hlc.rawValue > WireGrammar.maximumHLC { throw refuse("hlc \(view.hlc.rawValue) is beyond \(WireGrammar.maximumHLC)") }
            if view.hasEventID && view.seq == 0 { throw refuse("a record needs a positive seq") }
            if view.kind == .stationEdit, !Ledger.isValid(view), case .stationEdit(let edit) = view.record {
                do { try Ledger.validate(edit) } catch let error as LedgerError { throw refuse(error.message) }
            }
            index += 1
        }
    }

    package static func checkCount(_ count: Int, maximum: Int) throws {
        guard count <= maximum else {
            throw SyncServerError(.payloadTooLarge, "a push may carry at most \(maximum) records; send smaller pages")
        }
    }
}
