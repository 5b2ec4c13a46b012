import LedgerCore
import LedgerSync

/// A pull's answer as a store makes it: the records the client lacks as their encoded bytes, and
/// the rest of the answer (`page`, its `records` empty), written out as the JSON body or as record
/// frames (Schemas/sync-frames.md), whichever the client accepts.
package struct PullAnswer: Sendable {
    package var records: EncodedRecords
    package var page: PullResponse

    /// The JSON body.
    package var json: PullResponse {
        var response = page
        response.records = records.wireRecords
        return response
    }

    /// The frames body.
    package func frames(writer: RecordFrames.Writer) throws -> [UInt8] {
        try FramesBody.encode(header: PullFramesHeader(count: records.count, page: page), records: records, writer: writer)
    }
}
