extension CompletionDate {
    /// The long label the apps show (Schemas/domain-rules.md §4) in `ja`: 2013年9月1日, 2013年9月頃, 2013年頃,
    /// 乗下車済 (日付不明), 未乗下車. In `en` the canonical text form (`description`), which
    /// `complete` accepts back.
    package func label(_ language: OutputLanguage) -> String {
        guard language == .ja else { return description }
        switch self {
        case .notCompleted: return "未乗下車"
        case .unknown: return "乗下車済 (日付不明)"
        case .year(let y): return "\(y)年頃"
        case .month(let y, let m): return "\(y)年\(m)月頃"
        case .day(let y, let m, let d): return "\(y)年\(m)月\(d)日"
        }
    }
}
