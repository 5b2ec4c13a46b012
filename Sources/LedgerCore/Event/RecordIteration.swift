/// What a record visitor wants next: another record, or an early end of the walk without an
/// error (a full pull page, a search that found its record).
package enum RecordIteration: Sendable, Equatable {
    case `continue`
    case stop
}
