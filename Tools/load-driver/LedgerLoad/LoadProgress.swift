import LedgerCore

/// What the clients have achieved so far, shared with the restart trigger and the intruder.
package actor LoadProgress {
    private(set) var acknowledgedEvents = 0
    /// Devices the server has acknowledged events of, with their user (index).
    private(set) var knownDevices: [DeviceID: Int] = [:]
    private(set) var finished = false

    func acknowledged(_ count: Int, device: DeviceID, user: Int) {
        acknowledgedEvents += count
        knownDevices[device] = user
    }

    func finish() { finished = true }
}
