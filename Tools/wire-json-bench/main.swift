// wire-json-bench: CPU time of coding 100,000 sync records as JSON, Foundation's coder against
// the streaming one (WireJSON), in pages of 1,000 as pulls and pushes carry them.
//
//   swift build -c release --product wire-json-bench && .build/release/wire-json-bench [records] [runs]
//
// Prints a Markdown table (the median of `runs`, default 5) for BENCHMARKS.md.
import Foundation
import LedgerSync

#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let total = arguments.first ?? 100_000
let runs = arguments.dropFirst().first ?? 5
let pageSize = 1_000

/// Records like a real ledger's: mostly dated completions, a memo in one of five (Japanese text,
/// sometimes with a slash or a quote), device names and knowledge marks now and then.
func makeRecords(_ count: Int) -> [WireRecord] {
    let devices = (1...3).map { String(format: "%016llx", UInt64($0) &* 0x9E37_79B9_7F4A_7C15) }
    let memos = ["丸の内口", "乗換 3/4 番線", "駅そば \"天ぷら\"", "始発で通過", "雨\n傘を忘れた"]
    return (0..<count).map { i in
        let device = devices[i % devices.count]
        let hlc = String(UInt64(1_700_000_000_000 + i) << 16)
        switch i % 50 {
        case 49:
            return WireRecord(kind: WireRecord.knowledgeMarkKind, device: device, seq: UInt64(i + 1), hlc: hlc, station: nil,
                              compDate: nil, memo: nil, origin: nil, catalogVersion: nil, name: nil,
                              knowledge: Dictionary(uniqueKeysWithValues: devices.map { ($0, UInt64(i)) }))
        case 48:
            return WireRecord(kind: WireRecord.deviceNameKind, device: device, seq: nil, hlc: hlc, station: nil, compDate: nil,
                              memo: nil, origin: nil, catalogVersion: nil, name: "phone \(i)", knowledge: nil)
        default:
            return WireRecord(kind: WireRecord.stationEdit, device: device, seq: UInt64(i + 1), hlc: hlc,
                              station: UInt32(1_110_101 + i % 9_000), compDate: 20_240_503, memo: i % 5 == 0 ? memos[i % memos.count] : nil,
                              origin: "user", catalogVersion: nil, name: nil, knowledge: nil)
        }
    }
}

func cpuSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func median(_ work: () throws -> Int) rethrows -> (seconds: Double, check: Int) {
    var times: [Double] = []
    var check = 0
    for _ in 0..<runs {
        let start = cpuSeconds()
        check = try work()
        times.append(cpuSeconds() - start)
    }
    return (times.sorted()[runs / 2], check)
}

let records = makeRecords(total)
let pages = stride(from: 0, to: total, by: pageSize).map { Array(records[$0..<min(total, $0 + pageSize)]) }
let vector = Dictionary(uniqueKeysWithValues: Set(records.map(\.device)).map { ($0, UInt64(total)) })
let responses = pages.map {
    PullResponse(records: $0, more: true, cursor: 42, serverHas: vector, catalogVersion: 176, serverDigests: vector.mapValues { _ in "0123abcd" })
}
let foundationEncoder = JSONEncoder()
foundationEncoder.outputFormatting = [.sortedKeys]
let bodies = try pages.map { Array(try JSONEncoder().encode(PushRequest(records: $0))) }

let encodeOld = try median { try responses.reduce(0) { $0 + (try foundationEncoder.encode($1)).count } }
let encodeNew = try median { try responses.reduce(0) { $0 + (try WireJSON.encode($1)).count } }
let decodeOld = try median { try bodies.reduce(0) { $0 + (try JSONDecoder().decode(PushRequest.self, from: Data($1))).records.count } }
let decodeNew = try median {
    try bodies.reduce(0) { sum, body in sum + (try body.withUnsafeBytes { try WireJSON.decode(PushRequest.self, from: $0) }).records.count }
}
precondition(encodeOld.check == encodeNew.check && decodeOld.check == decodeNew.check, "the coders disagree")

func row(_ name: String, _ old: Double, _ new: Double) -> String {
    String(format: "| %@ | %.3f s (%.2f µs/record) | %.3f s (%.2f µs/record) | %.1f× |", name, old, old * 1e6 / Double(total),
           new, new * 1e6 / Double(total), old / new)
}
print("| \(total) records, pages of \(pageSize), median of \(runs) | Foundation | streaming (WireJSON) | faster |")
print("|---|---|---|---|")
print(row("encode pull responses", encodeOld.seconds, encodeNew.seconds))
print(row("decode push requests", decodeOld.seconds, decodeNew.seconds))
