import Foundation
import LedgerCore

/// The sync API's binary batches, `application/x-oritsubushi-frames` (Schemas/sync-frames.md): a
/// small JSON header (the JSON body with `records` empty, plus `count`) and the records as data
/// frames of a format-2 segment (`RecordFrames`).
///
///     offset 0   4 bytes   ASCII "OSF1"
///     offset 4   u32 LE    H, the header's length (at most 1 MiB)
///     offset 8   H bytes   the header: one UTF-8 JSON object
///     offset 8+H …         record frames to the end of the body, holding exactly `count` records
package enum FramesBody {
    package static let mediaType = "application/x-oritsubushi-frames"
    static let magic: [UInt8] = Array("OSF1".utf8)
    static let maximumHeaderBytes = 1 << 20

    /// Why a body was refused: `tooLarge` (413) when it declares more records than allowed,
    /// `invalid` (422, as the JSON path refuses a record it cannot take) when sound frames hold a
    /// record that is not valid, otherwise `malformed` (400).
    package struct Refusal: Error, Sendable {
        package enum Kind: Sendable { case malformed, tooLarge, invalid }
        package var kind: Kind
        package var message: String
        /// Set when the body holds the other form of records than the one asked for (a plaintext
        /// record in a sealed body, or a sealed one in a plaintext body; `kind` is `invalid`):
        /// the form found. A server answers it as the account's form refusing the push
        /// (Schemas/encryption.md §11: `encrypted-account`, `plaintext-account`).
        package var otherRecords: RecordForm?

        init(kind: Kind, message: String) {
            (self.kind, self.message, otherRecords) = (kind, message, nil)
        }

        /// Record `index` is of the form `found`, in a body of the other.
        init(otherRecords found: RecordForm, index: Int) {
            let sentence = switch found {
            case .plaintext: "record \(index) is a plaintext record, but this body must hold sealed records only: an end-to-end encrypted account's records travel sealed (Schemas/encryption.md)"
            case .sealed: "record \(index) is a sealed record, but this body must hold plaintext records only: sealed records go only to an end-to-end encrypted account (Schemas/encryption.md)"
            }
            (kind, message, otherRecords) = (.invalid, sentence, found)
        }
    }

    /// A body of `header` and `records` (plaintext or sealed) as frames; records that came as
    /// whole frames and were not changed since go out as those frames.
    package static func encode<Records: FramesBodyRecords>(header: some Encodable, records: Records,
                                                          writer: RecordFrames.Writer) throws -> [UInt8] {
        let json = try JSONEncoding.compact.encode(header)
        var body = magic
        body.reserveCapacity(8 + json.count + records.bytes.count / 2)
        withUnsafeBytes(of: UInt32(json.count).littleEndian) { body.append(contentsOf: $0) }
        body.append(contentsOf: json)
        if let frames = records.frames {
            // Records read or received as whole frames go out as those frames.
            body.append(contentsOf: frames.bytes)
        } else {
            // The writer reads only the records' lengths: it lays out sealed records too (§3.6).
            _ = records.bytes.withUnsafeBytes { writer.encode($0, appendingTo: &body) }
        }
        return body
    }

    /// `decode` of a body held in an array.
    package static func decode<Header: Decodable & FramesHeader>(
        _ body: [UInt8], as type: Header.Type, maximumRecords: Int, maximumDecodedBytes: Int = .max
    ) throws(Refusal) -> (Header, EncodedRecords) {
        try decodeArray(body, as: type, maximumRecords: maximumRecords, maximumDecodedBytes: maximumDecodedBytes)
    }

    /// The header and the plaintext records of `body`, every frame and record checked; a header
    /// declaring more than `maximumRecords` is refused before any frame is read, and records that
    /// decode to more than `maximumDecodedBytes` as soon as the record that passes it is decoded
    /// (LZ4 and the columnar blocks may expand a body hundreds of times: memory follows this
    /// bound, not the body's size; one frame's content is at most `LZ4Frame.maximumContentSize`).
    /// A sealed record in it is refused (`invalid`, `otherRecords == .sealed`).
    package static func decode<Header: Decodable & FramesHeader>(
        _ body: UnsafeRawBufferPointer, as type: Header.Type, maximumRecords: Int, maximumDecodedBytes: Int = .max,
        reader: RecordFrames.Reader
    ) throws(Refusal) -> (Header, EncodedRecords) {
        try decodeRecords(body, as: type, maximumRecords: maximumRecords, maximumDecodedBytes: maximumDecodedBytes,
                          reader: reader)
    }

    /// `decodeSealed` of a body held in an array.
    package static func decodeSealed<Header: Decodable & FramesHeader>(
        _ body: [UInt8], as type: Header.Type, maximumRecords: Int, maximumDecodedBytes: Int = .max
    ) throws(Refusal) -> (Header, SealedRecords) {
        try decodeArray(body, as: type, maximumRecords: maximumRecords, maximumDecodedBytes: maximumDecodedBytes)
    }

    /// The header and the sealed records (kinds 5 and 6, segment-format.md §3.6) of an encrypted
    /// account's body: the same checks and bounds as `decode` (`maximumDecodedBytes` counts the
    /// sealed records' stored forms). A plaintext record in it is refused (`invalid`,
    /// `otherRecords == .plaintext`: a push of plaintext records to an encrypted account,
    /// encryption.md §11). What is inside each seal is checked only by a device that opens it.
    package static func decodeSealed<Header: Decodable & FramesHeader>(
        _ body: UnsafeRawBufferPointer, as type: Header.Type, maximumRecords: Int, maximumDecodedBytes: Int = .max,
        reader: RecordFrames.Reader
    ) throws(Refusal) -> (Header, SealedRecords) {
        try decodeRecords(body, as: type, maximumRecords: maximumRecords, maximumDecodedBytes: maximumDecodedBytes,
                          reader: reader)
    }

    private static func decodeArray<Header: Decodable & FramesHeader, Records: FramesBodyRecords>(
        _ body: [UInt8], as type: Header.Type, maximumRecords: Int, maximumDecodedBytes: Int
    ) throws(Refusal) -> (Header, Records) {
        let reader = RecordFrames.Reader()
        var result: Result<(Header, Records), Refusal>!
        body.withUnsafeBytes { bytes in
            result = Result { () throws(Refusal) in
                try decodeRecords(bytes, as: type, maximumRecords: maximumRecords, maximumDecodedBytes: maximumDecodedBytes,
                                  reader: reader)
            }
        }
        return try result.get()
    }

    /// The one decoding of a body, for either form of records: only the record walk differs.
    private static func decodeRecords<Header: Decodable & FramesHeader, Records: FramesBodyRecords>(
        _ body: UnsafeRawBufferPointer, as _: Header.Type, maximumRecords: Int, maximumDecodedBytes: Int,
        reader: RecordFrames.Reader
    ) throws(Refusal) -> (Header, Records) {
        func malformed(_ why: String) -> Refusal { Refusal(kind: .malformed, message: "the frames body is malformed: \(why)") }
        guard body.count >= 8, body.prefix(4).elementsEqual(magic) else {
            throw malformed("it does not start with \"OSF1\" and a header length")
        }
        let length = Int(body.loadLE(UInt32.self, at: 4))
        guard length <= maximumHeaderBytes, 8 + length <= body.count else {
            throw malformed("its header length \(length) runs past the body or over 1 MiB")
        }
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: Data(UnsafeRawBufferPointer(rebasing: body[8..<(8 + length)])))
        } catch {
            throw malformed("its header is not the JSON object the API describes")
        }
        guard header.count >= 0 else { throw malformed("its header's count is negative") }
        guard header.count <= maximumRecords else {
            throw Refusal(kind: .tooLarge, message: "a batch may carry at most \(maximumRecords) records; send smaller pages")
        }
        var records = Records()
        // A station edit is 38 bytes and its memo (a sealed one 116); the header's count is the
        // sender's word, so the room is capped.
        records.reserve(bytes: min(header.count, 1 << 20) * Records.typicalRecordBytes)
        let frames = UnsafeRawBufferPointer(rebasing: body[(8 + length)...])
        let counts: [Int]
        // Counted here, not read back from `records` at each record: through the generic
        // `Records`, each read copied the batch's value (a retain and a release a record).
        var (taken, decodedBytes) = (0, 0)
        do {
            counts = try Records.forEach(in: frames, reader: reader) { view in
                guard taken < header.count else { throw MoreThanCounted() }
                records.append(view)
                taken += 1
                decodedBytes += Records.length(of: view)
                guard decodedBytes <= maximumDecodedBytes else { throw DecodesTooLarge() }
            }
        } catch is DecodesTooLarge {
            throw Refusal(kind: .tooLarge,
                          message: "the batch's records decode to more than \(maximumDecodedBytes) bytes, the server's limit; send smaller pages")
        } catch is MoreThanCounted {
            throw malformed("its frames hold more records than the \(header.count) of its header")
        } catch let fault as RecordFrames.Fault {
            if let index = fault.record {
                if let other = RecordForm(misplacedIn: Records.form, reason: fault.reason) {
                    throw Refusal(otherRecords: other, index: index)
                }
                throw Refusal(kind: .invalid, message: "record \(index): \(fault.reason)")
            }
            throw malformed("frame at byte \(8 + length + fault.offset): \(fault.reason)")
        } catch {
            throw malformed("\(error)")
        }
        guard records.count == header.count else {
            throw malformed("its frames hold \(records.count) records, not the \(header.count) of its header")
        }
        records.keep(readFrom: RecordFrames.Received(bytes: Array(frames), counts: counts))
        return (header, records)
    }
}

private struct MoreThanCounted: Error {}
private struct DecodesTooLarge: Error {}

/// A frames body's header: every one says how many records follow.
package protocol FramesHeader {
    var count: Int { get }
}

/// The header of a pull answer's frames: the JSON answer (`PullResponse`) with its `records`
/// empty, and `count`, in one object.
package typealias PullFramesHeader = PageFramesHeader<PullResponse>
/// The same for an encrypted account's pull (`SealedPullResponse`, Schemas/encryption.md §11).
package typealias SealedPullFramesHeader = PageFramesHeader<SealedPullResponse>

/// A pull answer's frames header: its page's JSON object with `count` added.
package struct PageFramesHeader<Page: Codable & Sendable>: Codable, Sendable, FramesHeader {
    package var count: Int
    package var page: Page

    package init(count: Int, page: Page) {
        (self.count, self.page) = (count, page)
    }

    enum CodingKeys: String, CodingKey { case count }

    package init(from decoder: any Decoder) throws {
        count = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .count)
        page = try Page(from: decoder)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(count, forKey: .count)
        try page.encode(to: encoder)
    }
}

/// The header of a push's frames.
package struct PushFramesHeader: Codable, Sendable, FramesHeader {
    package var count: Int
    package init(count: Int) { self.count = count }
}
