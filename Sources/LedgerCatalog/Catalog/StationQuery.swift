import GRDB
import LedgerCore

/// `station find`: the original apps' search and filters (Schemas/domain-rules.md §24), combinable. The text
/// search and the prefecture filter run in the catalogue's SQL; the completion filters need the
/// projection's comp_date, which the caller supplies (`CatalogStore.stations(_:compDate:)`).
package struct StationQuery: Sendable, Equatable {
    /// Which completions pass: `comp_date > 0` or `= 0`, as the map's 済 / 未 toggle.
    package enum Completion: String, Sendable, CaseIterable {
        case completed, incomplete
    }

    /// `LIKE 'word%'` (or `'%word%'` when `partial`) on the name, the reading, or an enabled
    /// line's name; `nil` for no text condition.
    package var text: String?
    package var field: CatalogStore.SearchField
    package var partial: Bool
    package var includeDisabled: Bool
    /// Prefecture codes (`StationResolver.prefectureCodes(matching:)`); `nil` for every prefecture.
    package var prefectures: [Int64]?
    package var dateGroup: CompletionDateGroup?
    package var completion: Completion?

    package init(text: String? = nil, field: CatalogStore.SearchField = .name, partial: Bool = false,
                 includeDisabled: Bool = false, prefectures: [Int64]? = nil, dateGroup: CompletionDateGroup? = nil,
                 completion: Completion? = nil) {
        self.text = text
        self.field = field
        self.partial = partial
        self.includeDisabled = includeDisabled
        self.prefectures = prefectures
        self.dateGroup = dateGroup
        self.completion = completion
    }

    /// Whether a station with this comp_date passes the date and completion filters.
    package func accepts(compDate: UInt32) -> Bool {
        if let dateGroup, !dateGroup.contains(compDate) { return false }
        switch completion {
        case .completed: return compDate > 0
        case .incomplete: return compDate == 0
        case nil: return true
        }
    }

    /// The catalogue part: distinct `s_id`s in order. `%`, `_` and `*` in the text are escaped
    /// with `*`, as the apps do.
    var sql: (String, StatementArguments) {
        var joins = "", conditions: [String] = [], arguments: StatementArguments = []
        if let text {
            var escaped = ""
            for c in text {
                if c == "%" || c == "_" || c == "*" { escaped.append("*") }
                escaped.append(c)
            }
            arguments = [(partial ? "%" : "") + escaped + "%"]
            switch field {
            case .name: conditions.append("s.station LIKE ? ESCAPE '*'")
            case .yomi: conditions.append("s.yomi LIKE ? ESCAPE '*'")
            case .line:
                joins = " JOIN stations_lines sl ON sl.s_id = s.s_id JOIN lines l ON l.l_id = sl.l_id"
                conditions.append("l.enabled = 1 AND l.line LIKE ? ESCAPE '*'")
            }
        }
        if !includeDisabled { conditions.append("s.enabled = 1") }
        if let prefectures {
            conditions.append("s.pref IN (\(prefectures.isEmpty ? "NULL" : prefectures.map(String.init).joined(separator: ",")))")
        }
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return ("SELECT DISTINCT s.s_id FROM stations s\(joins)\(filter) ORDER BY s.s_id", arguments)
    }
}

extension CatalogStore {
    /// The stations `query` selects, in `s_id` order; `compDate` gives a station's current
    /// comp_date (0 when it has no row) for the completion filters.
    package func stations(_ query: StationQuery, compDate: (UInt32) -> UInt32 = { _ in 0 }) throws -> [UInt32] {
        let (sql, arguments) = query.sql
        let ids = try read { db in
            try Int64.fetchAll(db, sql: sql, arguments: arguments).map { UInt32(truncatingIfNeeded: $0) }
        }
        guard query.dateGroup != nil || query.completion != nil else { return ids }
        return ids.filter { query.accepts(compDate: compDate($0)) }
    }
}
