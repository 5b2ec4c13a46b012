import LedgerCore

/// What a `stats` KEY may be (docs/ledger-cli.md "Statistics"): the code the level prints, or what the
/// qualifiers of a STATION argument accept — an operator type's name, an operator's `o_id`,
/// alias or part of its name, a line's `l_id` or part of its name, a prefecture's code or the
/// start of its name (`東京`, `東京都`), a reading in hiragana or katakana. A KEY that names
/// several groups of the level is refused naming them, unless one name is exactly the KEY.
extension StatisticsEngine {
    /// The operator type `text` names among `types`.
    static func typeKey(_ text: String, among types: [Int64]) throws -> Int64 {
        try pick(text, from: types.filter { StationNameFolding.names(text, id: $0, name: CatalogNames.operatorType($0)) },
                 name: CatalogNames.operatorType, what: "an operator type")
    }

    /// The operator `text` names among `ids` (the operators of one type).
    func operatorKey(_ text: String, among ids: Set<Int64>, type: Int64) throws -> Int64 {
        let candidates = StationResolver.operatorIDs(matching: text, in: catalog.operators.filter { ids.contains($0.id) })
        return try Self.pick(text, from: candidates, name: { catalog.operator($0)?.name ?? "" },
                             what: "an operator of type \(type)")
    }

    /// The line `text` names among `ids` (the lines of one operator).
    func lineKey(_ text: String, among ids: Set<Int64>, operator operatorID: Int64) throws -> Int64 {
        let candidates = StationResolver.lineIDs(matching: text, in: catalog.lines.filter { ids.contains($0.id) })
        return try Self.pick(text, from: candidates, name: { catalog.line($0)?.name ?? "" },
                             what: "a line of operator \(operatorID)")
    }

    /// The prefecture `text` names among `codes` (the prefectures with countable stations).
    static func prefectureKey(_ text: String, among codes: Set<Int64>) throws -> Int64 {
        let candidates = (StationResolver.prefectureCodes(matching: text) ?? []).filter(codes.contains)
        return try pick(text, from: candidates, name: CatalogNames.prefecture, what: "a prefecture code or name")
    }

    /// A reading key as the groups spell it: hiragana (`ツ` = `つ`).
    static func readingKey(_ text: String) -> String {
        StationNameFolding.foldReading(text)
    }

    private static func pick(_ text: String, from candidates: [Int64], name: (Int64) -> String, what: String) throws -> Int64 {
        if candidates.count == 1 { return candidates[0] }
        guard !candidates.isEmpty else { throw unknownKey(text, what) }
        let folded = StationNameFolding.fold(text)
        let exact = candidates.filter { StationNameFolding.fold(name($0)) == folded }
        if exact.count == 1 { return exact[0] }
        let listed = candidates.sorted().map { "\($0) \(name($0))" }.joined(separator: ", ")
        throw LedgerError(.badInput, "'\(text)' names \(candidates.count) groups (\(listed)); give one of their keys")
    }
}
