import Foundation
import LedgerCore

/// The single JSON objects the commands print (verify, status, conflicts, repair, stats, station
/// show): `Encodable` types mirroring Schemas/ and docs/, written by Foundation's `JSONEncoder`
/// with sorted keys, so the bytes are the same on every run and platform (unsorted keys follow
/// dictionary hashing on Linux). The per-event streams (replay, history, export) stay hand-built
/// for speed (`EventFormatter`).
enum JSONOutput {
    /// `value` as one line of JSON, without a trailing newline.
    static func line<T: Encodable>(_ value: T) throws -> String {
        return String(decoding: try JSONEncoding.readable.encode(value), as: UTF8.self)
    }
}
