import LedgerCore
import LedgerSync

/// A push's records decoded from the wire, refused as both stores refuse them: too many (413),
/// or one that is not a valid record (422, naming its index).
package enum PushRecords {
    package static func decode(_ request: PushRequest, maximum: Int) throws -> [LedgerRecord] {
        guard request.records.count <= maximum else {
            throw SyncServerError(.payloadTooLarge, "a push may carry at most \(maximum) records; send smaller pages")
        }
        var records: [LedgerRecord] = []
        records.reserveCapacity(request.records.count)
        for (index, item) in request.records.enumerated() {
            do { records.append(try item.record()) } catch let error as LedgerError {
                throw SyncServerError(.unprocessable, "record \(index): \(error.message)")
            }
        }
        return records
    }
}
