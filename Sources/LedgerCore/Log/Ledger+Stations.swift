extension Ledger {
    /// Folds one station's events from the whole log (no projection needed).
    package func foldStation(_ station: UInt32) throws -> (state: CompletionRegister, events: [StationEdit]) {
        var state = CompletionRegister()
        var events: [StationEdit] = []
        try forEachRecord { view, _ in
            guard view.kind == .stationEdit, view.station == station,
                  case .stationEdit(let edit) = view.record else { return }
            state.apply(edit)
            events.append(edit)
        }
        return (state, events)
    }
}
