import LedgerCore

/// What the clients have achieved so far, shared with the restart trigger and the intruder.
package actor LoadProgress {
    private(set) var acknowledgedEvents = 0
    /// Devices the server has acknowledged events of, with their user (index).
    private(set) var knownDevices: [DeviceID: Int] = [:]
    private(set) var finished = false
    /// Pushes sent and not yet answered, with the port of the instance each went to: the restart
    /// kills its victim only while it has one, so that the SIGKILL lands mid-push.
    private var openPushes: [Int: Int] = [:]
    private var nextPush = 0
    /// Pushes that ended without an answer (the connection failed).
    private var unansweredPushes: Set<Int> = []

    func acknowledged(_ count: Int, device: DeviceID, user: Int) {
        acknowledgedEvents += count
        knownDevices[device] = user
    }

    func finish() { finished = true }

    /// A push about to be sent to the instance on `port`; returns its number for `pushEnded`.
    func pushSent(port: Int) -> Int {
        nextPush += 1
        openPushes[nextPush] = port
        return nextPush
    }

    func pushEnded(_ push: Int, answered: Bool) {
        openPushes[push] = nil
        if !answered { unansweredPushes.insert(push) }
    }

    /// The pushes to `port` sent and not yet answered.
    func openPushes(port: Int) -> Set<Int> { Set(openPushes.filter { $0.value == port }.keys) }

    /// How many of `pushes` have not ended yet.
    func stillOpen(among pushes: Set<Int>) -> Int { pushes.filter { openPushes[$0] != nil }.count }

    /// How many of `pushes` ended without an answer.
    func unanswered(among pushes: Set<Int>) -> Int { pushes.intersection(unansweredPushes).count }
}
