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
        try await framed(request, limit: limit) { bytes throws(FramesBody.Refusal) in
            try FramesBody.decode(bytes, as: PushFramesHeader.self, maximumRecords: maximumRecords,
                                  maximumDecodedBytes: maximumDecodedBytes, reader: RecordFrames.Reader()).1
        }
    }

    /// The same for an end-to-end encrypted account's push: sealed records only (Schemas/
    /// encryption.md §11); a body of plaintext records is 409 `encrypted-account`.
    static func sealedRecords(_ request: Request, limit: Int, maximumRecords: Int, maximumDecodedBytes: Int) async throws -> SealedRecords {
        try await sealedBody(request, as: PushFramesHeader.self, limit: limit, maximumRecords: maximumRecords,
                             maximumDecodedBytes: maximumDecodedBytes).records
    }

    /// A frames body of sealed records with its header of type `Header`.
    static func sealedBody<Header: Decodable & FramesHeader & Sendable>(
        _ request: Request, as _: Header.Type, limit: Int, maximumRecords: Int, maximumDecodedBytes: Int
    ) async throws -> (header: Header, records: SealedRecords) {
        try await framed(request, limit: limit) { bytes throws(FramesBody.Refusal) in
            try FramesBody.decodeSealed(bytes, as: Header.self, maximumRecords: maximumRecords,
                                        maximumDecodedBytes: maximumDecodedBytes, reader: RecordFrames.Reader())
        }
    }

    /// Decodes a push's frames body with `decode` on NIO's thread pool (above), answering its
    /// refusals: a body of the other form of records than the account's is 409.
    private static func framed<Records: Sendable>(
        _ request: Request, limit: Int, _ decode: @escaping @Sendable (UnsafeRawBufferPointer) throws(FramesBody.Refusal) -> Records
    ) async throws -> Records {
        let buffer = try await body(request, limit: limit)
        let decoded = try await NIOThreadPool.singleton.runIfActive { () -> Result<Records, FramesBody.Refusal> in
            Result { () throws(FramesBody.Refusal) -> Records in
                try buffer.withUnsafeReadableBytes { bytes throws(FramesBody.Refusal) in try decode(bytes) }
            }
        }
        do {
            return try decoded.get()
        } catch {
            switch (error.kind, error.otherRecords) {
            case (_, .plaintext?): throw SyncServerError(.encryptedAccount, error.message)
            case (_, .sealed?): throw SyncServerError(.plaintextAccount, error.message)
            case (.tooLarge, nil): throw SyncServerError(.payloadTooLarge, error.message)
            case (.invalid, nil): throw SyncServerError(.unprocessable, error.message)
            case (.malformed, nil): throw SyncServerError(.malformed, error.message)
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
