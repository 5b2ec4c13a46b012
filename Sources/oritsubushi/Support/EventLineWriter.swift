import LedgerCore

/// `EventFormatter`'s lines, written as bytes straight into the output (`ByteSink`): the
/// streaming path of `replay` (millions of lines), byte for byte the same output. What a line
/// repeats is prepared once and reused: each device's prefix (id and quoted name), the date of
/// the current day, the text format's date labels; times, numbers and memos are written digit by
/// digit and byte by byte. Records other than station edits (with `--all` only, a handful per
/// device) go through `EventFormatter`.
struct EventLineWriter {
    let formatter: EventFormatter
    private var devicePrefixes: [DeviceID: [UInt8]] = [:]
    /// The prefix of the device of the previous line: events come in runs of one device.
    private var lastDevice: DeviceID?
    private var lastPrefix: [UInt8] = []
    private var day: Int64 = .min
    /// JSON: "YYYY-MM-DDT" of `day` (days since 1970-01-01, UTC); text: "YYYY-MM-DD " (or
    /// "YYYY/MM/DD " in `ja`) of `day` in Japan time (`JapanTime`).
    private var dayText: [UInt8] = []
    /// Text format: "  date LABEL" by comp_date code (empty for a code that is not a date).
    private var dateLabels: [UInt32: [UInt8]] = [:]
    /// Text format: "  station ", "  memo " in the formatter's language.
    private let stationWord, memoWord: [UInt8]
    /// Text format: "  (user)" and the other origins' tags, by `EventOrigin.rawValue`.
    private let originTags: [[UInt8]]

    init(_ formatter: EventFormatter) {
        self.formatter = formatter
        let words = Words(formatter.language)
        stationWord = Array("  \(words.station) ".utf8)
        memoWord = Array("  \(words.memo) ".utf8)
        originTags = EventOrigin.allCases.map { Array("  \(words.origin($0))".utf8) }
    }

    mutating func write(_ view: RecordView, into out: inout ByteSink) throws {
        guard view.kind == .stationEdit else {
            var line = try formatter.line(view)
            line.withUTF8 { out.append(UnsafeRawBufferPointer($0)) }
            out.append(0x0a)
            return
        }
        switch formatter.format {
        case .jsonl: writeJSON(view, into: &out)
        case .text: writeText(view, into: &out)
        }
        out.append(0x0a)
    }

    private mutating func writeJSON(_ view: RecordView, into out: inout ByteSink) {
        appendPrefix(of: view.device, to: &out)
        out.appendDecimal(view.seq)
        out.append(",\"hlc\":")
        out.appendDecimal(view.hlc.rawValue)
        out.append(",\"time\":\"")
        appendTime(view.hlc.milliseconds, to: &out)
        out.append("\",\"station\":")
        out.appendDecimal(UInt64(view.station))
        if view.hasCompDate {
            out.append(",\"comp_date\":")
            out.appendDecimal(UInt64(view.compDateCode))
        }
        if view.hasMemo {
            out.append(",\"memo\":")
            Self.appendQuoted(view.memoBytes, to: &out)
        }
        switch view.origin {
        case .user: out.append(",\"origin\":\"user\"}")
        case .import: out.append(",\"origin\":\"import\"}")
        case .catalog: out.append(",\"origin\":\"catalog\"}")
        }
    }

    private mutating func writeText(_ view: RecordView, into out: inout ByteSink) {
        appendTime(view.hlc.milliseconds + JapanTime.offsetMilliseconds, japan: true, to: &out)
        appendPrefix(of: view.device, to: &out)
        out.appendDecimal(view.seq)
        out.append(stationWord)
        out.appendDecimal(UInt64(view.station))
        if view.hasCompDate { appendDateLabel(view.compDateCode, to: &out) }
        if view.hasMemo {
            out.append(memoWord)
            Self.appendQuoted(view.memoBytes, to: &out)
        }
        out.append(originTags[Int(view.origin.rawValue)])
    }

    /// JSON: `{"device":"…","device_name":"…","seq":`; text: `  NAME#` (the id without a name).
    private mutating func appendPrefix(of device: DeviceID, to out: inout ByteSink) {
        if device != lastDevice {
            if devicePrefixes[device] == nil {
                let name = formatter.deviceNames[device] ?? ""
                let text: String
                switch formatter.format {
                case .jsonl: text = "{\"device\":\"\(device)\",\"device_name\":\(JSONText.quoted(name)),\"seq\":"
                case .text: text = "  \(name.isEmpty ? device.description : name)#"
                }
                devicePrefixes[device] = Array(text.utf8)
            }
            lastDevice = device
            lastPrefix = devicePrefixes[device]!
        }
        out.append(lastPrefix)
    }

    private mutating func appendDateLabel(_ code: UInt32, to out: inout ByteSink) {
        if dateLabels[code] == nil {
            dateLabels[code] = (try? CompletionDate(code: code)).map { Array("  \(Words(formatter.language).date) \($0.label(formatter.language))".utf8) } ?? []
        }
        out.append(dateLabels[code]!)
    }

    /// `ISO8601.format(milliseconds:)`, or with `japan` `JapanTime.text` of milliseconds already
    /// shifted to Japan time, written in place: the day's text is made once per day, the time of
    /// day digit by digit.
    private mutating func appendTime(_ milliseconds: Int64, japan: Bool = false, to out: inout ByteSink) {
        let day = milliseconds / 86_400_000  // an hlc's milliseconds are never negative
        if day != self.day {
            self.day = day
            let text = "\(CalendarDay(daysSinceUnixEpoch: Int(day)))"
            dayText = Array((japan ? text.split(separator: "-").joined(separator: JapanTime.dateSeparator(formatter.language)) + " " : text + "T").utf8)
        }
        out.append(dayText)
        let ofDay = Int(milliseconds - day * 86_400_000)
        out.appendTwoDigits(ofDay / 3_600_000)
        out.append(UInt8(ascii: ":"))
        out.appendTwoDigits(ofDay / 60_000 % 60)
        out.append(UInt8(ascii: ":"))
        out.appendTwoDigits(ofDay / 1000 % 60)
        if japan {
            out.append(" JST")
            return
        }
        out.append(UInt8(ascii: "."))
        let fraction = ofDay % 1000
        out.append(UInt8(truncatingIfNeeded: 0x30 + fraction / 100))
        out.appendTwoDigits(fraction % 100)
        out.append(UInt8(ascii: "Z"))
    }

    /// `JSONText.quoted` over UTF-8 bytes (the ledger checked them on read): `"`, `\`, `\n`,
    /// `\r`, `\t` escaped, other control characters as `\u00XX`, everything else as it is.
    static func appendQuoted(_ bytes: UnsafeRawBufferPointer, to out: inout ByteSink) {
        out.append(UInt8(ascii: "\""))
        var start = 0
        for index in 0..<bytes.count {
            let byte = bytes[index]
            guard byte < 0x20 || byte == 0x22 || byte == 0x5c else { continue }
            out.append(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
            switch byte {
            case 0x22: out.append("\\\"")
            case 0x5c: out.append("\\\\")
            case 0x0a: out.append("\\n")
            case 0x0d: out.append("\\r")
            case 0x09: out.append("\\t")
            default:
                out.append("\\u00")
                out.append(hexDigit(byte >> 4))
                out.append(hexDigit(byte & 0x0f))
            }
            start = index + 1
        }
        out.append(UnsafeRawBufferPointer(rebasing: bytes[start...]))
        out.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? 0x30 + value : 0x61 + value - 10
    }
}
