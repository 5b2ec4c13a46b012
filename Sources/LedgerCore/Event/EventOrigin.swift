/// Where an event came from.
package enum EventOrigin: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    /// Typed by the user (`complete`, `today`, `memo`, …).
    case user = 0
    /// Brought over from an original app's data (`import`).
    case `import` = 1
    /// Derived from a catalogue upgrade (a station carry-over).
    case catalog = 2

    package var description: String {
        switch self {
        case .user: return "user"
        case .import: return "import"
        case .catalog: return "catalog"
        }
    }
}
