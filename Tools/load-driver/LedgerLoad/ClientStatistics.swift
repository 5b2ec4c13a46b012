import LedgerCore

/// One client's counters and measurements.
struct ClientStatistics: Sendable {
    var pushMilliseconds: [Double] = []
    var pullMilliseconds: [Double] = []
    var retries = 0
    var disconnects = 0
    /// Events the server confirmed with a 200 push reply, with the fingerprint sent.
    var acknowledged: [EventID: UInt64] = [:]
    /// The highest seq of this device a pull's `server_has` confirmed.
    var confirmedSeq: UInt64 = 0
    /// Events acknowledged only by a pull's `server_has` (their push reply was lost).
    var confirmedByPull = 0
    /// Events a push reply counted as already held (a retried or cut push).
    var duplicatesReported = 0
    /// Errors that are not retried (a refusal of a valid request) or a give-up.
    var failures: [String] = []

    mutating func add(_ other: ClientStatistics) {
        pushMilliseconds += other.pushMilliseconds
        pullMilliseconds += other.pullMilliseconds
        retries += other.retries
        disconnects += other.disconnects
        acknowledged.merge(other.acknowledged) { first, _ in first }
        confirmedByPull += other.confirmedByPull
        duplicatesReported += other.duplicatesReported
        failures += other.failures
    }
}
