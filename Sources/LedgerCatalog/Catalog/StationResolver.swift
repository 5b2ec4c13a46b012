import LedgerCore

/// `--operator`, `--line` and `--pref`: what narrows a station name to one station.
package struct StationQualifiers: Sendable, Equatable {
    package var operatorText: String?
    package var lineText: String?
    package var prefectureText: String?

    package init(operator operatorText: String? = nil, line lineText: String? = nil, prefecture prefectureText: String? = nil) {
        (self.operatorText, self.lineText, self.prefectureText) = (operatorText, lineText, prefectureText)
    }

    package var isEmpty: Bool { operatorText == nil && lineText == nil && prefectureText == nil }
}

/// Turns what a user types for a STATION into one `s_id` (docs/ledger-cli.md "Stations by name").
///
/// A number is an `s_id` (checked against the qualifiers when some are given). Anything else is
/// the name of an enabled station, with or without its trailing 駅, or its reading in hiragana,
/// compared after `StationNameFolding`. Exactly one match is the answer; several are refused
/// (exit 65) with the candidates, one per line, after the sentence of the error; none is refused
/// naming the closest prefix matches. The candidate lines travel in the error's message so that
/// the one place that prints errors (the CLI's ExitStatus) prints them after the sentence.
package struct StationResolver {
    private struct Entry {
        var id: UInt32
        var name: String
        var yomi: String
    }

    package let snapshot: CatalogSnapshot
    private let entries: [Entry]

    package init(snapshot: CatalogSnapshot) {
        self.snapshot = snapshot
        entries = snapshot.stations.filter(\.enabled).map {
            Entry(id: $0.id, name: StationNameFolding.foldStationName($0.name), yomi: StationNameFolding.foldReading($0.yomi))
        }
    }

    package func resolve(_ text: String, _ qualifiers: StationQualifiers = StationQualifiers()) throws -> UInt32 {
        let allowed = try filter(qualifiers)
        if let id = try Self.stationID(text) {
            guard let allowed else { return id }
            guard allowed(id) else {
                throw LedgerError(.badInput, "station \(id) does not match the given \(Self.qualifierNames(qualifiers))")
            }
            return id
        }
        let name = StationNameFolding.foldStationName(text)
        let reading = StationNameFolding.foldReading(text)
        let matches = entries.filter { ($0.name == name || $0.yomi == reading) && allowed?($0.id) != false }.map(\.id)
        if matches.count == 1 { return matches[0] }
        if matches.count > 1 {
            let lines = matches.map(candidateLine).joined(separator: "\n")
            throw LedgerError(.badInput, "\(text) matches \(matches.count) stations; add --operator, --line or --pref, or give the s_id\n\(lines)")
        }
        let closest = closestPrefixMatches(name: name, reading: reading, allowed: allowed)
        let scope = qualifiers.isEmpty ? "" : " with the given \(Self.qualifierNames(qualifiers))"
        let hint = closest.isEmpty ? "" : "; closest: " + closest.map { "\(snapshot.station($0)?.name ?? "") (\($0))" }.joined(separator: ", ")
        throw LedgerError(.badInput, "no enabled station is named \(text)\(scope)\(hint)")
    }

    /// `s_id  name  operator  lines  prefecture`, as the ambiguity error lists candidates.
    package func candidateLine(_ id: UInt32) -> String {
        guard let s = snapshot.station(id) else { return String(id) }
        let op = snapshot.operator(s.operatorID)?.name ?? ""
        let lines = snapshot.lines(of: id).filter(\.enabled).map(\.name).joined(separator: ",")
        return "\(id)  \(s.name)  \(op)  \(lines)  \(CatalogNames.prefecture(s.pref))"
    }

    /// A typed number as an `s_id`, `nil` when the text is not a number.
    package static func stationID(_ text: String) throws -> UInt32? {
        let folded = StationNameFolding.fold(text)
        guard !folded.isEmpty, folded.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        guard let id = UInt32(folded) else { throw LedgerError(.badInput, "\(text) is not a station id") }
        return id
    }

    /// The prefecture codes `text` names: a code 1–47, or the start of the names (`三重`,
    /// `北` = 北海道); `nil` when it names none.
    package static func prefectureCodes(matching text: String) -> [Int64]? {
        let folded = StationNameFolding.fold(text)
        if let code = StationNameFolding.number(folded) { return (1...47).contains(code) ? [code] : nil }
        let codes = CatalogNames.prefectureNames.indices.filter { !folded.isEmpty && CatalogNames.prefectureNames[$0].japanese.hasPrefix(folded) }
        return codes.isEmpty ? nil : codes.map { Int64($0 + 1) }
    }

    /// The stations the qualifiers allow, or `nil` when none is given.
    private func filter(_ q: StationQualifiers) throws -> ((UInt32) -> Bool)? {
        guard !q.isEmpty else { return nil }
        let operators = try q.operatorText.map(operatorIDs)
        let onLines = try q.lineText.map(stationsOnLines)
        let prefectures = try q.prefectureText.map { text in
            guard let codes = Self.prefectureCodes(matching: text) else {
                throw LedgerError(.badInput, "--pref \(text) is neither a prefecture code 1–47 nor the start of a prefecture's name")
            }
            return Set(codes)
        }
        let snapshot = self.snapshot
        return { id in
            guard let s = snapshot.station(id) else { return false }
            return operators?.contains(s.operatorID) != false && onLines?.contains(id) != false
                && prefectures?.contains(s.pref) != false
        }
    }

    /// `--operator`: the operators an `o_id`, an alias (OperatorAliases) or part of a name names.
    package static func operatorIDs(matching text: String, in operators: [CatalogOperator]) -> [Int64] {
        if let names = OperatorAliases.operators(for: StationNameFolding.fold(text)) {
            return operators.filter { names.contains($0.name) }.map(\.id)
        }
        return operators.filter { StationNameFolding.names(text, id: $0.id, name: $0.name) }.map(\.id)
    }

    /// `--line`: the lines an `l_id` or part of a name names.
    package static func lineIDs(matching text: String, in lines: [CatalogLine]) -> [Int64] {
        lines.filter { StationNameFolding.names(text, id: $0.id, name: $0.name) }.map(\.id)
    }

    private func operatorIDs(_ text: String) throws -> Set<Int64> {
        let ids = Self.operatorIDs(matching: text, in: snapshot.operators)
        guard !ids.isEmpty else { throw LedgerError(.badInput, "no operator matches --operator \(text)") }
        return Set(ids)
    }

    /// The stations on the lines `--line` names.
    private func stationsOnLines(_ text: String) throws -> Set<UInt32> {
        let lines = Set(Self.lineIDs(matching: text, in: snapshot.lines))
        guard !lines.isEmpty else { throw LedgerError(.badInput, "no line matches --line \(text)") }
        return Set(snapshot.memberships.filter { lines.contains($0.lineID) }.map(\.stationID))
    }

    /// Up to five allowed stations whose name or reading starts with the longest prefix of the
    /// typed text that any of them starts with.
    private func closestPrefixMatches(name: String, reading: String, allowed: ((UInt32) -> Bool)?) -> [UInt32] {
        var name = name, reading = reading
        while !name.isEmpty || !reading.isEmpty {
            let found = entries.filter {
                ((!name.isEmpty && $0.name.hasPrefix(name)) || (!reading.isEmpty && $0.yomi.hasPrefix(reading)))
                    && allowed?($0.id) != false
            }
            if !found.isEmpty {
                return found.sorted { ($0.name.count, $0.id) < ($1.name.count, $1.id) }.prefix(5).map(\.id)
            }
            if !name.isEmpty { name.removeLast() }
            if !reading.isEmpty { reading.removeLast() }
        }
        return []
    }

    private static func qualifierNames(_ q: StationQualifiers) -> String {
        [q.operatorText.map { "--operator \($0)" }, q.lineText.map { "--line \($0)" }, q.prefectureText.map { "--pref \($0)" }]
            .compactMap { $0 }.joined(separator: ", ")
    }
}
