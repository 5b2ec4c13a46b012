import LedgerCatalog
import LedgerCore

/// The report's fixed wording in `ja` (the apps' words) or `en`: every word of the page comes
/// from here, so `--lang en` is English throughout.
struct ReportWords {
    let language: OutputLanguage
    private var ja: Bool { language == .ja }

    var title: String { ja ? "降りつぶし 進捗レポート" : "Oritsubushi progress report" }
    var map: String { ja ? "地図" : "Map" }
    var mapHelp: String {
        ja ? "ドラッグで移動、ホイールまたはピンチで拡大縮小。駅をタップ（ポイント）すると詳細を表示します。"
           : "Drag to pan; wheel or pinch to zoom. Tap or point at a station for its details."
    }
    var legendDone: String { ja ? "乗下車済の駅・全駅乗下車済の路線" : "completed stations and fully completed lines" }
    var legendRest: String { ja ? "未乗下車" : "not yet" }
    var operators: String { ja ? "事業者種別・事業者" : "Operator types and operators" }
    var prefectures: String { ja ? "都道府県" : "Prefectures" }
    var readings: String { ja ? "読み" : "Readings" }
    var years: String { ja ? "乗下車年" : "Years" }
    var cumulative: String { ja ? "年ごとの累計乗下車駅数" : "Cumulative completions per year" }
    var perPrefecture: String { ja ? "都道府県別の達成率" : "Completion by prefecture" }
    var latest: String { ja ? "最新の記録" : "Latest events" }
    var conflicts: String { ja ? "未解決の競合" : "Open conflicts" }
    var noEvents: String { ja ? "記録はまだありません。" : "No events yet." }
    var time: String { ja ? "時刻" : "Time" }
    var device: String { ja ? "端末" : "Device" }
    var station: String { ja ? "駅" : "Station" }
    var change: String { ja ? "内容" : "Change" }
    var memo: String { ja ? "メモ" : "memo" }
    var lineCount: String { ja ? "路線" : "lines" }
    var completedLines: String { ja ? "全駅乗下車済の路線" : "fully completed lines" }
    var notCompleted: String { CompletionDate.notCompleted.label(language) }

    /// `N駅中 M駅 R.r%` (the apps' totals) or `M of N stations (R.r%)`.
    func total(_ c: StatsCounts) -> String {
        ja ? "\(c.total)駅中 \(c.completed)駅 \(c.rateText)" : "\(c.completed) of \(c.total) stations (\(c.rateText))"
    }
    /// A year's group with its label in the language: 2013年 or 2013, 年月日不明 or unknown.
    func year(_ group: StatsGroup) -> StatsGroup {
        var group = group
        if !ja { group.label = group.key == "unknown" ? "date unknown" : group.key }
        return group
    }
    /// A prefecture's group with its English name in `en`.
    func prefecture(_ group: StatsGroup) -> StatsGroup {
        var group = group
        if !ja, let code = Int64(group.key) { group.label = CatalogNames.prefectureInEnglish(code) }
        return group
    }
    /// An operator type's group with its English name in `en` (operators keep their names).
    func operatorType(_ group: StatsGroup) -> StatsGroup {
        var group = group
        if !ja, let code = Int64(group.key) { group.label = CatalogNames.operatorTypeInEnglish(code) }
        return group
    }
    func asOf(_ time: String) -> String { ja ? "\(time) 時点" : "as of \(time)" }
    func conflictCount(_ n: Int) -> String { ja ? "\(n)件" : "\(n)" }
    func unknownDates(_ n: Int) -> String {
        ja ? "日付不明の \(n)駅はグラフに含みません。" : "\(n) completions without a known year are not in the chart."
    }
}
