// crash-harness: the child and the parent of the process-kill crash test (Tools/crash-test).
//
//   crash-harness child LEDGER [--seed N] [--roll-threshold BYTES] [--max-batch N] [--limit EVENTS]
//       Creates or opens LEDGER and appends durable batches of `HarnessEvents` in a loop, printing
//       `ACK <seq>` after each append returns (that is, after its fsync).
//   crash-harness trials [--trials N] [--seed N] [--max-delay-ms N] [--work DIR]
//       Runs N kill trials against `crash-harness child` and prints the figures; exit 1 on a failure.
//   crash-harness write-corpus DIR
//       Writes the fuzzing seed corpus (Tests/Fuzz/corpus/segment): small real segment files and
//       raw record streams.
import Foundation
import LedgerCore
import LedgerTestSupport

/// Writes one line straight to fd 1: an acknowledgement must not wait in a stdio buffer.
func say(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    var done = 0
    while done < bytes.count {
        let n = bytes.withUnsafeBytes { write(1, $0.baseAddress! + done, bytes.count - done) }
        if n <= 0 { if errno == EINTR { continue }; exit(3) }
        done += n
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("crash-harness: \(message)\n".utf8))
    exit(1)
}

func option(_ name: String, in arguments: [String], default value: UInt64) -> UInt64 {
    guard let index = arguments.firstIndex(of: name) else { return value }
    guard index + 1 < arguments.count, let parsed = UInt64(arguments[index + 1]) else { fail("\(name) needs a number") }
    return parsed
}

func runChild(_ arguments: [String]) throws {
    guard arguments.count >= 1, !arguments[0].hasPrefix("--") else { fail("usage: crash-harness child LEDGER [options]") }
    let directory = arguments[0]
    var generator = SeededGenerator(seed: option("--seed", in: arguments, default: UInt64(getpid())))
    let rollThreshold = Int(option("--roll-threshold", in: arguments, default: UInt64(Ledger.defaultRollThreshold)))
    let maximumBatch = Int(max(1, option("--max-batch", in: arguments, default: 8)))
    let limit = option("--limit", in: arguments, default: .max)

    let ledger: Ledger
    if PosixFileSystem().fileExists(Path.join(directory, LedgerMetadata.fileName)) {
        ledger = try Ledger.open(directory: directory)
        say("OPENED \(ledger.localDevice) \(ledger.versionVector[ledger.localDevice] ?? 0)")
        if let recovery = ledger.recovery { say("RECOVERED \(recovery.offset) \(recovery.removedBytes)") }
    } else {
        ledger = try Ledger.create(directory: directory, deviceName: HarnessEvents.deviceName)
        say("CREATED \(ledger.localDevice)")
    }
    ledger.rollThreshold = rollThreshold
    var held = ledger.versionVector[ledger.localDevice] ?? 0
    while held < limit {
        let count = UInt64(Int.random(in: 1...maximumBatch, using: &generator))
        let drafts = (held + 1...held + count).map(HarnessEvents.draft(seq:))
        let events = try ledger.appendLocal(drafts)
        guard events.last?.id.seq == held + count else { fail("append returned \(events.map(\.id))") }
        held += count
        say("ACK \(held)")
    }
    ledger.close()
}

func runTrials(_ arguments: [String]) throws {
    let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    let work = arguments.firstIndex(of: "--work").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
        ?? NSTemporaryDirectory() + "crash-test-\(getpid())"
    var configuration = ProcessKillTrials.Configuration(
        harness: executable, workDirectory: work,
        trials: Int(option("--trials", in: arguments, default: 300)),
        seed: option("--seed", in: arguments, default: UInt64(Date().timeIntervalSince1970)))
    configuration.maximumKillDelay = Int(option("--max-delay-ms", in: arguments, default: 60))
    print("crash-test: \(configuration.trials) trials, seed \(configuration.seed), kill delays 0–\(configuration.maximumKillDelay) ms")
    let report = try ProcessKillTrials(configuration).run()
    print(report)
    for failure in report.failures.prefix(20) { print("FAILURE: \(failure)") }
    exit(report.failures.isEmpty ? 0 : 1)
}

/// Small real segments (open, sealed, several devices and record kinds, a 4 KiB memo), the
/// format-2 block streams inside them (what `lz4 -dc` prints) and the raw record streams those
/// decode to, as the fuzzer's starting points. (The `*-v1.seg` seeds are format-1 segments kept
/// from before format 2; this build no longer writes that format.)
func writeCorpus(_ arguments: [String]) throws {
    guard let directory = arguments.first else { fail("usage: crash-harness write-corpus DIR") }
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let clock = FixedClock(milliseconds: 1_763_776_800_000)
    func write(_ name: String, _ bytes: [UInt8]) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: Path.join(directory, name)))
    }
    func ledger(_ batches: [Int], seal: Bool, name: String, configure: (Ledger) throws -> Void = { _ in }) throws {
        let fileSystem = CrashableFileSystem()
        let ledger = try Ledger.create(directory: "/corpus", deviceName: HarnessEvents.deviceName,
                                       fileSystem: fileSystem, clock: clock, useLock: false)
        var held: UInt64 = 0
        for count in batches {
            _ = try ledger.appendLocal((held + 1...held + UInt64(count)).map(HarnessEvents.draft(seq:)))
            held += UInt64(count)
        }
        try configure(ledger)
        if seal { try ledger.sealActiveSegment() }
        let segment = try fileSystem.readFile(ledger.segments[0].path)
        try write(name + ".seg", segment)
        try write(name + ".blocks", frameContents(segment))
        var stream: [UInt8] = []
        try ledger.forEachRecord { view, _ in stream += UnsafeRawBufferPointer(start: view.base, count: view.length) }
        try write(name + ".records", stream)
        ledger.close()
    }
    try ledger([], seal: false, name: "new")
    try ledger([1, 3], seal: false, name: "open")
    try ledger([2, 1, 4], seal: true, name: "sealed")
    try ledger([96, 1], seal: true, name: "memo4k")
    try ledger([2], seal: true, name: "devices") { ledger in
        let other = DeviceID(rawValue: 0x0123_4567_89AB_CDEF)
        try ledger.append([
            .deviceName(DeviceNameRecord(device: other, hlc: ledger.nextLocalHLC(), name: "他の端末")),
            .stationEdit(StationEdit(id: EventID(device: other, seq: 1), hlc: ledger.nextLocalHLC(), station: 42,
                                     compDate: .month(2019, 4), memo: "", origin: .user)),
        ])
        _ = try ledger.appendCatalogVersion(176)
        try ledger.append([.knowledgeMark(KnowledgeMark(
            id: EventID(device: ledger.localDevice, seq: (ledger.versionVector[ledger.localDevice] ?? 0) + 1),
            hlc: ledger.nextLocalHLC(), knowledge: [other: 1]))])
    }
}

/// The decompressed contents of a segment's data frames, concatenated.
func frameContents(_ segment: [UInt8]) throws -> [UInt8] {
    let decoder = LZ4FrameDecoder()
    var contents: [UInt8] = []
    try segment.withUnsafeBytes { bytes in
        var offset = SegmentHeader.frameSize
        while offset + 4 <= bytes.count, bytes.loadLE(UInt32.self, at: offset) == LZ4Frame.magic {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[offset...])
            guard case .complete(let length, let size) = LZ4Frame.extent(of: rest) else { fail("a corpus segment has a bad frame") }
            contents += try decoder.decompress(frame: UnsafeRawBufferPointer(rebasing: rest[0..<length]), contentSize: size)
            offset += length
        }
    }
    return contents
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "child": try runChild(Array(arguments.dropFirst()))
    case "trials": try runTrials(Array(arguments.dropFirst()))
    case "write-corpus": try writeCorpus(Array(arguments.dropFirst()))
    default: fail("usage: crash-harness child LEDGER [options] | crash-harness trials [options]")
    }
} catch {
    fail("\(error)")
}
