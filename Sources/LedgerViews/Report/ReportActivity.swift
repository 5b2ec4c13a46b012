/// What the report lists besides the catalogue and the completions: the latest station edits and
/// how many conflicts are open (the command collects both in one scan of the log).
package struct ReportActivity: Sendable, Equatable {
    /// The latest station edits by last-writer-wins order, newest first.
    package private(set) var events: [ReportEvent] = []
    package var openConflicts = 0
    /// How many events the report lists.
    package static let latestLimit = 20

    package init() {}

    /// Keeps `event` if it is among the `latestLimit` latest seen so far.
    package mutating func add(_ event: ReportEvent) {
        guard events.count < Self.latestLimit || event.order > events[events.count - 1].order else { return }
        events.insert(event, at: events.firstIndex { event.order > $0.order } ?? events.count)
        if events.count > Self.latestLimit { events.removeLast() }
    }
}
