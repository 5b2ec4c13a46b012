import LedgerCore

/// Answers "is this s_id a station of the catalogue?" for incoming events. The sync server and
/// the merge consult it so that an event for an unknown station is refused before anything is
/// written.
package protocol StationDirectory: Sendable {
    func isKnown(_ station: UInt32) -> Bool
}

/// Accepts every positive id: used where no catalogue is loaded.
package struct AnyPositiveStation: StationDirectory {
    package init() {}
    package func isKnown(_ station: UInt32) -> Bool { station > 0 }
}

/// A fixed set of station ids (a loaded catalogue, or tests).
package struct StationSet: StationDirectory {
    package var ids: Set<UInt32>
    package init(_ ids: Set<UInt32>) { self.ids = ids }
    package func isKnown(_ station: UInt32) -> Bool { ids.contains(station) }
}
