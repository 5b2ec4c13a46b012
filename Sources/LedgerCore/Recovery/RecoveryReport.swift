/// What recovery did to the newest segment when the ledger was opened.
package struct RecoveryReport: Sendable, CustomStringConvertible {
    package var segment: String
    package var offset: Int
    package var removedBytes: Int
    package var savedTo: String
    package var reason: String

    package var description: String {
        "recovered from an interrupted write: removed \(removedBytes) torn bytes at offset \(offset) of \(segment) (\(reason)); they were saved to \(savedTo)"
    }
}
