import LedgerCore
import LedgerSync

/// A sealed pull's answer: the sealed records the client lacks and the page, sent as frames
/// whose header is `SealedPullFramesHeader` (an encrypted account answers frames only).
package struct SealedPullAnswer: Sendable {
    package var records: SealedRecords
    package var page: SealedPullResponse

    package init(records: SealedRecords, page: SealedPullResponse) {
        (self.records, self.page) = (records, page)
    }

    package func frames(writer: RecordFrames.Writer) throws -> [UInt8] {
        try FramesBody.encode(header: SealedPullFramesHeader(count: records.count, page: page), records: records, writer: writer)
    }
}
