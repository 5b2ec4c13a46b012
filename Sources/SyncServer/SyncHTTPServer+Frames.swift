import HTTPTypes
import Hummingbird
import LedgerCore
import LedgerSync
import NIOCore
import NIOPosix

extension SyncHTTPServer {
    /// A push's records from a frames body (Schemas/sync-frames.md): a malformed body is 400, a
    /// header declaring more records than a push may carry, or records decoding to more than
    /// `maximumDecodedBytes`, 413; nothing is written for either.
    ///
    /// The decoding (up to `maximumDecodedBytes` of LZ4 and record checks, seconds of CPU for a
    /// maximal push) runs on NIO's thread pool, not on Swift's cooperative threads: those are as
    /// many as cores and run every request's handler, so eight maximal pushes decoding there would
    /// hold every other user's request until they finished (RELIABILITY.md, PushMemoryTests).
    static func framedRecords(_ request: Request, limit: Int, maximumRecords: Int, maximumDecodedBytes: Int) async throws -> EncodedRecords {
        let buffer = try await body(request, limit: limit)
        let decoded = try await NIOThreadPool.singleton.runIfActive { () -> Result<EncodedRecords, FramesBody.Refusal> in
            Result { () throws(FramesBody.Refusal) -> EncodedRecords in
                try buffer.withUnsafeReadableBytes { bytes throws(FramesBody.Refusal) in
                    try FramesBody.decode(bytes, as: PushFramesHeader.self, maximumRecords: maximumRecords,
                                          maximumDecodedBytes: maximumDecodedBytes, reader: RecordFrames.Reader()).1
                }
            }
        }
        do {
            return try decoded.get()
        } catch {
            switch error.kind {
            case .tooLarge: throw SyncServerError(.payloadTooLarge, error.message)
            case .invalid: throw SyncServerError(.unprocessable, error.message)
            case .malformed: throw SyncServerError(.malformed, error.message)
            }
        }
    }

    /// A 200 answer with a frames body.
    static func frames(_ body: [UInt8]) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = FramesBody.mediaType
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
