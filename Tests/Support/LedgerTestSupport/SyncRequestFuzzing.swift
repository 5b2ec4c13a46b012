import Foundation
import LedgerCore
import LedgerSync

/// What the `FuzzSyncRequest` libFuzzer harness checks for one request body, kept here so that
/// crashing inputs replay as regression tests: the server's decoding of push and pull bodies
/// (JSON, then `WireRecord.record()` and `WireVersionVector.decode`) never traps and fails only
/// with a `LedgerError`; and a record it accepts survives the wire and the segment record codec
/// unchanged, since the server appends exactly what it accepted.
package enum SyncRequestFuzzing {
    package static func run(_ bytes: [UInt8]) {
        runFrames(bytes)
        let data = Data(bytes)
        if let pull = try? JSONDecoder().decode(PullRequest.self, from: data) {
            expectLedgerErrors { _ = try WireVersionVector.decode(pull.have) }
        }
        guard let push = try? JSONDecoder().decode(PushRequest.self, from: data) else { return }
        for wire in push.records {
            var accepted: LedgerRecord?
            expectLedgerErrors { accepted = try wire.record() }
            guard let record = accepted else { continue }
            // The wire form of an accepted record decodes to the same record.
            do {
                let again = try WireRecord(record).record()
                FuzzCheck.require(again == record, "\(record) crossed the wire as \(again)")
            } catch {
                FuzzCheck.fail("the wire form of an accepted record is refused: \(error)")
                return
            }
            // And so does its segment encoding.
            var encoder = RecordEncoder()
            encoder.append(record)
            var decoded: [LedgerRecord] = []
            do {
                try encoder.bytes.withUnsafeBytes { content in
                    try RecordStream.forEach(in: content) { decoded.append($0.record) }
                }
            } catch {
                FuzzCheck.fail("an accepted record \(record) cannot be read back from a segment: \(error)")
                return
            }
            FuzzCheck.require(decoded == [record], "an accepted record \(record) was read back as \(decoded)")
        }
    }

    private static func expectLedgerErrors(_ body: () throws -> Void) {
        do { try body() } catch is LedgerError {} catch {
            FuzzCheck.fail("an error that is not a LedgerError escaped: \(type(of: error)) \(error)")
            return
        }
    }

    /// The same bytes as a frames push body (Schemas/sync-frames.md): refused with a
    /// `FramesBody.Refusal`, never a trap; what is accepted is whole records that survive being
    /// framed again byte for byte.
    static func runFrames(_ bytes: [UInt8]) {
        guard let (header, records) = try? FramesBody.decode(bytes, as: PushFramesHeader.self, maximumRecords: 5_000) else { return }
        FuzzCheck.require(header.count == records.count, "accepted frames hold \(records.count) records, not \(header.count)")
        let again = try? FramesBody.encode(header: PushFramesHeader(count: records.count), records: records, writer: RecordFrames.Writer())
        let back = again.flatMap { try? FramesBody.decode($0, as: PushFramesHeader.self, maximumRecords: 5_000).1 }
        FuzzCheck.require(back?.bytes == records.bytes, "accepted frames do not survive being framed again")
    }
}
