import Foundation
import LedgerCore
import LedgerSync
import NIOCore

/// A pulled page, however it came (frames or JSON): its records as their encodings, and the
/// rest of the answer (`response`, its `records` empty).
package struct PulledPage: Sendable {
    package var records: EncodedRecords
    package var response: PullResponse
    /// Whether the server answered with frames (so it takes a push as frames too).
    package var framed: Bool
    /// An encrypted account's page: the stored sealed digests the device compares itself
    /// (`SealedForkCheck`; `response.serverDigests` is then empty).
    package var sealed: SealedPullResponse?
    /// An encrypted account's page: for each device, the digest of the sealed record that held
    /// its highest seq in the page, which the device opened and admits (`SealedForkCheck` then
    /// has nothing to compare where the server states that very record).
    package var received: [DeviceID: String] = [:]
}

extension SyncConnection {
    /// The `Accept` of a pull that asks for frames and takes JSON from a server without them
    /// (Schemas/sync-frames.md §Negotiation).
    static let framesFirst = "\(FramesBody.mediaType), application/json;q=0.5"

    /// One pull page, asked for as record frames; a server that does not offer them answers JSON,
    /// which is taken the same way.
    package func pullPage(_ request: PullRequest) async throws -> PulledPage {
        let reply = try await exchange("/v1/pull", body: try WireJSON.encode(request), contentType: "application/json",
                                       accept: Self.framesFirst)
        guard reply.contentType.map({ $0.hasPrefix(FramesBody.mediaType) }) == true else {
            var page = try decodeJSON(PullResponse.self, reply.body)
            var records = EncodedRecords()
            for wire in page.records { records.append(try wire.record()) }
            page.records = []
            return PulledPage(records: records, response: page, framed: false)
        }
        do {
            let (header, records) = try reply.body.withUnsafeReadableBytes { bytes throws(FramesBody.Refusal) in
                try FramesBody.decode(bytes, as: PullFramesHeader.self, maximumRecords: Int.max, reader: RecordFrames.Reader())
            }
            return PulledPage(records: records, response: header.page, framed: true)
        } catch {
            throw LedgerError(.unavailable, "the sync server at \(server) sent frames this client cannot read: \(error.message)")
        }
    }

    /// Pushes records as frames (to a server that answered a pull with frames) or as JSON.
    package func push(_ records: EncodedRecords, asFrames: Bool) async throws -> PushResponse {
        guard asFrames else { return try await push(PushRequest(records: records.wireRecords)) }
        return try await push(framesBody: try Self.framesBody(records))
    }

    /// A frames push's body (made apart from sending it, so that the next can be made meanwhile).
    package static func framesBody(_ records: EncodedRecords) throws -> [UInt8] {
        try FramesBody.encode(header: PushFramesHeader(count: records.count), records: records, writer: RecordFrames.Writer())
    }

    /// Pushes a body made by `framesBody`.
    package func push(framesBody body: [UInt8]) async throws -> PushResponse {
        try decodeJSON(PushResponse.self, try await exchange("/v1/push", body: body, contentType: FramesBody.mediaType).body)
    }
}
