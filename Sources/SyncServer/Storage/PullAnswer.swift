import LedgerCore
import LedgerSync

/// A pull's answer as a store makes it: the records the client lacks as their encoded bytes,
/// written out as the JSON body (`PullResponse`) or as record frames (Schemas/sync-frames.md),
/// whichever the client accepts.
package struct PullAnswer: Sendable {
    package var records: EncodedRecords
    package var more: Bool
    package var cursor: UInt64
    package var serverHas: [String: UInt64]
    package var catalogVersion: UInt32?
    package var serverDigests: [String: String]

    /// The JSON body.
    package var json: PullResponse {
        PullResponse(records: records.wireRecords, more: more, cursor: cursor, serverHas: serverHas,
                     catalogVersion: catalogVersion, serverDigests: serverDigests)
    }

    /// The frames body.
    package func frames(writer: RecordFrames.Writer) throws -> [UInt8] {
        try FramesBody.encode(header: PullFramesHeader(count: records.count, more: more, cursor: cursor, serverHas: serverHas,
                                                       catalogVersion: catalogVersion, serverDigests: serverDigests),
                              records: records, writer: writer)
    }
}
