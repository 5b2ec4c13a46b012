import ArgumentParser
import LedgerCore

#if canImport(Glibc)
import Glibc
#endif

enum EventFormat: String, ExpressibleByArgument, CaseIterable {
    case text, jsonl
}

/// Formats events as text lines or JSON Lines (keys: device, device_name, seq, hlc, time,
/// station, comp_date, memo, origin; comp_date and memo only when the event sets them; times in
/// UTC). The text's words, dates and times follow `language` (`Words`; `ja`: 乗下車日
/// 2013年9月1日, 2026/11/24 13:30:05 JST; times in Japan time, `JapanTime`); JSON Lines ignore it.
/// JSON lines are `EventLineOutput`s; `replay`'s station edits take the streaming path of
/// `EventLineWriter`, byte for byte the same.
struct EventFormatter {
    var format: EventFormat
    var deviceNames: [DeviceID: String]
    var language: OutputLanguage = .en

    func line(_ view: RecordView) throws -> String {
        let device = view.device
        let name = deviceNames[device] ?? ""
        let hlc = view.hlc
        switch format {
        case .jsonl:
            return try EventLineOutput(view, deviceName: name).line()
        case .text:
            let words = Words(language)
            var out = "\(words.time(hlc))  \(name.isEmpty ? device.description : name)#\(view.seq)"
            switch view.kind {
            case .stationEdit:
                out += "  \(words.station) \(view.station)"
                if view.hasCompDate, let date = try? CompletionDate(code: view.compDateCode) { out += "  \(words.date) \(date.label(language))" }
                if let memo = view.memo { out += "  \(words.memo) \(JSONText.quoted(memo))" }
                out += "  " + words.origin(view.origin)
            case .catalogVersion:
                out += "  \(words.catalogueVersion) \(view.catalogVersion)"
            case .deviceName:
                out += "  \(words.deviceName) \(JSONText.quoted(view.deviceName))"
            case .knowledgeMark:
                out += "  " + words.knowledgeMark(Int(view.knowledgeCount))
            }
            return out
        }
    }
}

/// Buffered stdout for commands that print many lines.
struct OutputBuffer {
    private var buffer = ""

    init() { buffer.reserveCapacity(1 << 16) }

    mutating func writeLine(_ line: String) {
        buffer += line
        buffer += "\n"
        if buffer.utf8.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        fflushStdout()
        Terminal.write(fd: STDOUT_FILENO, buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Flushes anything `print` buffered, so that raw writes keep their order.
func fflushStdout() { fflush(nil) }

extension Ledger {
    var deviceNameTable: [DeviceID: String] { deviceNames.mapValues(\.name) }
}
