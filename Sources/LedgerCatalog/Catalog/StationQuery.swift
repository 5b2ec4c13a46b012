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

    /// The text to look for (`nil` for no text condition): folded and matched by prefix (or
    /// anywhere when `partial`) on the name, the reading, or either (`StationTextMatch`); with
    /// `.line` any part of an enabled line's name, or its `l_id`, as `--line` (§24).
    package var text: String?
    package var field: CatalogStore.SearchField
    package var partial: Bool
    package var includeDisabled: Bool
    /// Prefecture codes (`StationResolver.prefectureCodes(matching:)`); `nil` for every prefecture.
    package var prefectures: [Int64]?
    package var dateGroup: CompletionDateGroup?
    package var completion: Completion?

    package init(text: String? = nil, field: CatalogStore.SearchField = .any, partial: Bool = false,
                 includeDisabled: Bool = false, prefectures: [Int64]? = nil, dateGroup: CompletionDateGroup? = nil,
                 completion: Completion? = nil) {
        (self.text, self.field, self.partial, self.includeDisabled) = (text, field, partial, includeDisabled)
        (self.prefectures, self.dateGroup, self.completion) = (prefectures, dateGroup, completion)
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

    /// The catalogue part: the stations passing the SQL filters (enabled, prefecture, and for
    /// `--by line` the stations on `lines`), in `s_id` order, with their names and readings for
    /// the text match.
    func sql(lines: [Int64]?) -> String {
        var conditions: [String] = []
        if let lines {
            conditions.append("EXISTS (SELECT 1 FROM stations_lines sl WHERE sl.s_id = s.s_id AND sl.l_id IN (\(Self.list(lines))))")
        }
        if !includeDisabled { conditions.append("s.enabled = 1") }
        if let prefectures { conditions.append("s.pref IN (\(Self.list(prefectures)))") }
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return "SELECT s.s_id, s.station, s.yomi FROM stations s\(filter) ORDER BY s.s_id"
    }

    private static func list(_ values: [Int64]) -> String {
        values.isEmpty ? "NULL" : values.map(String.init).joined(separator: ",")
    }

    /// The name and reading match of TEXT: the one rule of STATION arguments and the phone app
    /// (`StationTextMatch`); `nil` without TEXT or with `--by line`.
    var textMatch: StationTextMatch? {
        guard let text, let textField = StationTextMatch.Field(rawValue: field.rawValue) else { return nil }
        return StationTextMatch(text, field: textField, partial: partial)
    }
}

extension CatalogStore {
    /// The stations `query` selects, in `s_id` order; `compDate` gives a station's current
    /// comp_date (0 when it has no row) for the completion filters.
    package func stations(_ query: StationQuery, compDate: (UInt32) -> UInt32 = { _ in 0 }) throws -> [UInt32] {
        let match = query.textMatch
        let ids = try read { db in
            var lines: [Int64]?
            if let text = query.text, query.field == .line {
                let enabled = try Row.fetchAll(db, sql: "SELECT l_id, line FROM lines WHERE enabled = 1 ORDER BY l_id").map {
                    CatalogLine(id: $0.integer("l_id"), name: $0.text("line"), operatorID: 0, enabled: true, lineType: nil)
                }
                lines = StationResolver.lineIDs(matching: text, in: enabled)
            }
            return try Row.fetchAll(db, sql: query.sql(lines: lines)).compactMap { row -> UInt32? in
                if let match, !match.matches(name: row.text("station"), yomi: row.text("yomi")) { return nil }
                return UInt32(truncatingIfNeeded: row.integer("s_id"))
            }
        }
        guard query.dateGroup != nil || query.completion != nil else { return ids }
        return ids.filter { query.accepts(compDate: compDate($0)) }
    }
}
