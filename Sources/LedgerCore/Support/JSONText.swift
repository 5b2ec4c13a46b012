/// JSON string escaping for hand-written, streaming JSON output (JSON Lines replay and export
/// produce millions of lines; a generic encoder per line would dominate the run time).
package enum JSONText {
    package static func quoted(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let s where s.value < 0x20:
                let hex = String(s.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
        return out
    }

    /// Appends `text` quoted byte for byte as Foundation's `JSONEncoder` writes it with default
    /// options (`/` as `\/`, `\b` and `\f` short, other controls as lowercase `\u00xx`): the sync
    /// API's JSON (WireJSONWriter in LedgerSync) keeps the bytes it has always had.
    package static func appendEncoderQuoted(_ text: String, to out: inout [UInt8]) {
        out.append(0x22)
        var text = text
        text.withUTF8 { bytes in
            for byte in bytes {
                switch byte {
                case 0x22: out.append(0x5C); out.append(0x22)
                case 0x5C: out.append(0x5C); out.append(0x5C)
                case 0x2F: out.append(0x5C); out.append(0x2F)
                case 0x08: out.append(0x5C); out.append(0x62)
                case 0x0C: out.append(0x5C); out.append(0x66)
                case 0x0A: out.append(0x5C); out.append(0x6E)
                case 0x0D: out.append(0x5C); out.append(0x72)
                case 0x09: out.append(0x5C); out.append(0x74)
                case 0..<0x20:
                    out.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
                default: out.append(byte)
                }
            }
        }
        out.append(0x22)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
