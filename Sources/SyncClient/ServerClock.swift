import Foundation
import Synchronization

/// The server's clock as its last answer gave it (the HTTP `Date` header, to the second), shared
/// by copies of a `SyncConnection`. An end-to-end encrypted account's server cannot read an
/// event's hlc, so the pushing device makes the server's clock checks itself against this
/// clock (Schemas/encryption.md §1, "The clock stays sealed"; `SealedPushChecks`).
package final class ServerClock: Sendable {
    private let last = Mutex<Int64?>(nil)

    package init() {}

    /// The server's time at its last answer, in Unix milliseconds; nil before any answer with a
    /// `Date` header that reads.
    package var milliseconds: Int64? { last.withLock { $0 } }

    /// Notes an answer's `Date` header (RFC 9110's IMF-fixdate); one that does not read is ignored.
    func note(dateHeader: String?) {
        guard let dateHeader, let date = Self.parse(dateHeader) else { return }
        last.withLock { $0 = Int64((date.timeIntervalSince1970 * 1000).rounded()) }
    }

    /// "Sun, 06 Nov 1994 08:49:37 GMT".
    static func parse(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: text)
    }
}
