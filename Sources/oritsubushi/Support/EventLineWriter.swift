import LedgerCore

#if canImport(Glibc)
import Glibc
#endif

/// `EventFormatter`'s lines, written as bytes straight into an output buffer: the streaming path
/// of `replay` (millions of lines), byte for byte the same output. What a line repeats is
/// prepared once and reused: each device's prefix (id and quoted name), the ISO 8601 text of the
/// current second (events of one second share it), the text format's date labels; numbers and
/// memos are written digit by digit and byte by byte. Records other than station edits (with
/// `--all` only, a handful per device) go through `EventFormatter`.
struct EventLineWriter {
    let formatter: EventFormatter
    private var devicePrefixes: [DeviceID: [UInt8]] = [:]
    private var second: Int64 = .min
    /// "YYYY-MM-DDTHH:MM:SS." of `second`.
    private var secondText: [UInt8] = []
    /// Text format: "  date LABEL" by comp_date code (empty for a code that is not a date).
    private var dateLabels: [UInt32: [UInt8]] = [:]

    init(_ formatter: EventFormatter) { self.formatter = formatter }

    mutating func write(_ view: RecordView, into out: inout [UInt8]) {
        guard view.kind == .stationEdit else {
            out.append(contentsOf: formatter.line(view).utf8)
            out.append(0x0a)
            return
        }
        switch formatter.format {
        case .jsonl: writeJSON(view, into: &out)
        case .text: writeText(view, into: &out)
        }
        out.append(0x0a)
    }

    private mutating func writeJSON(_ view: RecordView, into out: inout [UInt8]) {
        out.append(contentsOf: prefix(of: view.device))
        Self.appendDecimal(view.seq, to: &out)
        out.append(contentsOf: Self.hlcKey)
        Self.appendDecimal(view.hlc.rawValue, to: &out)
        out.append(contentsOf: Self.timeKey)
        appendTime(view.hlc.milliseconds, to: &out)
        out.append(contentsOf: Self.stationKey)
        Self.appendDecimal(UInt64(view.station), to: &out)
        if view.hasCompDate {
            out.append(contentsOf: Self.compDateKey)
            Self.appendDecimal(UInt64(view.compDateCode), to: &out)
        }
        if view.hasMemo {
            out.append(contentsOf: Self.memoKey)
            Self.appendQuoted(view.memoBytes, to: &out)
        }
        out.append(contentsOf: Self.originJSON[Int(view.origin.rawValue)])
    }

    private mutating func writeText(_ view: RecordView, into out: inout [UInt8]) {
        appendTime(view.hlc.milliseconds, to: &out)
        out.append(contentsOf: prefix(of: view.device))
        Self.appendDecimal(view.seq, to: &out)
        out.append(contentsOf: Self.stationWord)
        Self.appendDecimal(UInt64(view.station), to: &out)
        if view.hasCompDate { out.append(contentsOf: dateLabel(view.compDateCode)) }
        if view.hasMemo {
            out.append(contentsOf: Self.memoWord)
            Self.appendQuoted(view.memoBytes, to: &out)
        }
        out.append(contentsOf: Self.originText[Int(view.origin.rawValue)])
    }

    /// JSON: `{"device":"…","device_name":"…","seq":`; text: `  NAME#` (the id without a name).
    private mutating func prefix(of device: DeviceID) -> [UInt8] {
        if let known = devicePrefixes[device] { return known }
        let name = formatter.deviceNames[device] ?? ""
        let text: String
        switch formatter.format {
        case .jsonl: text = "{\"device\":\"\(device)\",\"device_name\":\(JSONText.quoted(name)),\"seq\":"
        case .text: text = "  \(name.isEmpty ? device.description : name)#"
        }
        devicePrefixes[device] = Array(text.utf8)
        return devicePrefixes[device]!
    }

    private mutating func dateLabel(_ code: UInt32) -> [UInt8] {
        if let known = dateLabels[code] { return known }
        let label = (try? CompletionDate(code: code)).map { Array("  date \($0.label(formatter.language))".utf8) } ?? []
        dateLabels[code] = label
        return label
    }

    /// `ISO8601.format(milliseconds:)`: the second's text is made once per second.
    private mutating func appendTime(_ milliseconds: Int64, to out: inout [UInt8]) {
        let second = milliseconds / 1000  // an hlc's milliseconds are never negative
        if second != self.second {
            self.second = second
            let text = ISO8601.format(milliseconds: second * 1000)  // "…:SS.000Z"
            secondText = Array(text.utf8.dropLast(4))
        }
        out.append(contentsOf: secondText)
        let fraction = Int(milliseconds - second * 1000)
        out.append(UInt8(0x30 + fraction / 100))
        out.append(UInt8(0x30 + fraction / 10 % 10))
        out.append(UInt8(0x30 + fraction % 10))
        out.append(UInt8(ascii: "Z"))
    }

    static func appendDecimal(_ value: UInt64, to out: inout [UInt8]) {
        if value < 10 {
            out.append(UInt8(truncatingIfNeeded: 0x30 + value))
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for the 20 digits of a u64
        withUnsafeMutableBytes(of: &digits) { buffer in
            var rest = value, index = buffer.count
            while rest > 0 {
                index -= 1
                buffer[index] = UInt8(truncatingIfNeeded: 0x30 + rest % 10)
                rest /= 10
            }
            out.append(contentsOf: buffer[index...])
        }
    }

    /// `JSONText.quoted` over UTF-8 bytes (the ledger checked them on read): `"`, `\`, `\n`,
    /// `\r`, `\t` escaped, other control characters as `\u00XX`, everything else as it is.
    static func appendQuoted(_ bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var start = 0
        for index in 0..<bytes.count {
            let byte = bytes[index]
            guard byte < 0x20 || byte == 0x22 || byte == 0x5c else { continue }
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
            switch byte {
            case 0x22: out.append(contentsOf: [0x5c, 0x22])
            case 0x5c: out.append(contentsOf: [0x5c, 0x5c])
            case 0x0a: out.append(contentsOf: [0x5c, UInt8(ascii: "n")])
            case 0x0d: out.append(contentsOf: [0x5c, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5c, UInt8(ascii: "t")])
            default:
                out.append(contentsOf: Array("\\u00".utf8))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0f)])
            }
            start = index + 1
        }
        out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start...]))
        out.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
    private static let hlcKey = Array(",\"hlc\":".utf8)
    private static let timeKey = Array(",\"time\":\"".utf8)
    private static let stationKey = Array("\",\"station\":".utf8)
    private static let compDateKey = Array(",\"comp_date\":".utf8)
    private static let memoKey = Array(",\"memo\":".utf8)
    private static let stationWord = Array("  station ".utf8)
    private static let memoWord = Array("  memo ".utf8)
    /// By `EventOrigin.rawValue`.
    private static let originJSON = EventOrigin.allCases.map { Array(",\"origin\":\"\($0)\"}".utf8) }
    private static let originText = EventOrigin.allCases.map { Array("  (\($0))".utf8) }
}

/// Buffered stdout of bytes, written in large blocks (`replay`).
struct ByteOutputBuffer {
    static let blockSize = 1 << 20
    var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(Self.blockSize + 4096) }

    mutating func flushIfFull() {
        if bytes.count >= Self.blockSize { flush() }
    }

    mutating func flush() {
        fflushStdout()
        bytes.withUnsafeBytes { Terminal.write(fd: STDOUT_FILENO, $0) }
        bytes.removeAll(keepingCapacity: true)
    }
}
