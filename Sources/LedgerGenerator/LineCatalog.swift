#if canImport(Glibc)
import Glibc
#endif
import LedgerCore

/// Railway lines as ordered lists of station ids: what the generator needs to make trips that
/// complete runs of neighbouring stations.
///
/// Built either from an original apps' catalogue dump (`stations-176.sql`), read with a simple
/// byte scanner over its `stations` and `stations_lines` INSERT lines (no SQLite needed), or
/// synthesised.
package struct LineCatalog: Sendable {
    /// Each line's stations in `s_sort` order; every line has at least two stations.
    package var lines: [[UInt32]]

    package init(lines: [[UInt32]]) { self.lines = lines }

    package var stationCount: Int { Set(lines.joined()).count }

    /// Synthetic lines: `lineCount` lines of 6 to 45 stations with ids from 120001, where each
    /// line after the first starts at a station of an earlier line (a transfer station).
    package static func synthetic(lineCount: Int = 600, seed: UInt64 = 0x5EED) -> LineCatalog {
        var random = SeededRandom(seed: seed)
        var next: UInt32 = 120_001
        var lines: [[UInt32]] = []
        lines.reserveCapacity(lineCount)
        for index in 0..<lineCount {
            let length = 6 + random.below(40)
            var stations: [UInt32] = []
            stations.reserveCapacity(length)
            if index > 0 {
                let earlier = lines[random.below(lines.count)]
                stations.append(earlier[random.below(earlier.count)])
            }
            while stations.count < length {
                stations.append(next)
                next += 1
            }
            lines.append(stations)
        }
        return LineCatalog(lines: lines)
    }

    /// Reads the lines of a catalogue dump: every `INSERT … INTO "stations_lines" VALUES(l_id,
    /// s_id, s_sort)` row whose station is enabled in the `stations` rows, ordered by `s_sort`.
    package static func load(dumpAt path: String) throws -> LineCatalog {
        let bytes = try PosixFileSystem().readFile(path)
        let catalog = bytes.withUnsafeBufferPointer { parse($0) }
        guard !catalog.lines.isEmpty else {
            throw LedgerError(.badInput, "\(path) holds no stations_lines rows; is it a station catalogue dump?")
        }
        return catalog
    }

    /// Parses a dump held in memory (see `load(dumpAt:)`).
    package static func parse(_ text: UnsafeBufferPointer<UInt8>) -> LineCatalog {
        let linesPrefix = Array(#"INTO "stations_lines" VALUES("#.utf8)
        let stationsPrefix = Array(#"INTO "stations" VALUES("#.utf8)
        var rows: [UInt32: [(sort: Int64, station: UInt32)]] = [:]
        var disabled = Set<UInt32>()
        var lineStart = 0
        let n = text.count
        while lineStart < n {
            var lineEnd = lineStart
            while lineEnd < n && text[lineEnd] != 0x0A { lineEnd += 1 }
            let line = UnsafeBufferPointer(rebasing: text[lineStart..<lineEnd])
            if let at = find(linesPrefix, in: line) {
                let numbers = integers(in: line, from: at + linesPrefix.count, count: 3)
                if numbers.count == 3, numbers[1] > 0, numbers[1] <= Int64(UInt32.max) {
                    rows[UInt32(numbers[0]), default: []].append((numbers[2], UInt32(numbers[1])))
                }
            } else if let at = find(stationsPrefix, in: line) {
                // s_id is first; enabled and weight are the last two values, after the quoted texts.
                let id = integers(in: line, from: at + stationsPrefix.count, count: 1)
                let tail = trailingIntegers(in: line, count: 2)
                if id.count == 1, tail.count == 2, tail[0] == 0 { disabled.insert(UInt32(id[0])) }
            }
            lineStart = lineEnd + 1
        }
        let lines = rows.keys.sorted().compactMap { id -> [UInt32]? in
            let stations = rows[id]!.sorted { $0.sort < $1.sort }.map(\.station).filter { !disabled.contains($0) }
            return stations.count >= 2 ? stations : nil
        }
        return LineCatalog(lines: lines)
    }

    private static func find(_ needle: [UInt8], in line: UnsafeBufferPointer<UInt8>) -> Int? {
        guard line.count >= needle.count, line.count > 7, line[0] == UInt8(ascii: "I") else { return nil }
        var i = 0
        while i + needle.count <= line.count {
            if line[i] == needle[0] {
                var j = 1
                while j < needle.count && line[i + j] == needle[j] { j += 1 }
                if j == needle.count { return i }
            }
            i += 1
        }
        return nil
    }

    /// Up to `count` comma-separated integers starting at `offset`.
    private static func integers(in line: UnsafeBufferPointer<UInt8>, from offset: Int, count: Int) -> [Int64] {
        var values: [Int64] = []
        var i = offset
        while values.count < count && i < line.count {
            var negative = false
            if line[i] == UInt8(ascii: "-") { negative = true; i += 1 }
            var value: Int64 = 0, digits = 0
            while i < line.count, line[i] >= 0x30, line[i] <= 0x39, digits < 18 {
                value = value * 10 + Int64(line[i] - 0x30)
                i += 1
                digits += 1
            }
            guard digits > 0 else { break }
            values.append(negative ? -value : value)
            guard i < line.count, line[i] == UInt8(ascii: ",") else { break }
            i += 1
        }
        return values
    }

    /// The last `count` integers before the closing `)`.
    private static func trailingIntegers(in line: UnsafeBufferPointer<UInt8>, count: Int) -> [Int64] {
        var close = line.count - 1
        while close >= 0 && line[close] != UInt8(ascii: ")") { close -= 1 }
        var start = close
        var commas = 0
        while start > 0 && commas < count {
            start -= 1
            if line[start] == UInt8(ascii: ",") { commas += 1 }
        }
        guard commas == count else { return [] }
        return integers(in: line, from: start + 1, count: count)
    }
}
