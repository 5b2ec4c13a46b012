import LedgerCatalog
import LedgerCore

/// The statistics engine over a loaded catalogue and projection.
struct BenchmarkStatistics {
    let engine: StatisticsEngine

    /// The top level of `hierarchy` and the first group of every level below it, as
    /// `oritsubushi stats` walks them; returns the number of groups and stations reported.
    func walk(_ hierarchy: StatsHierarchy) throws -> Int {
        var path: [String] = []
        var reported = 0
        while true {
            let report = try engine.report(hierarchy, path: path)
            reported += (report.groups?.count ?? 0) + (report.stations?.count ?? 0)
            guard let first = report.groups?.first else { return reported }
            path.append(first.key)
        }
    }
}
