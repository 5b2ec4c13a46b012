/// Terminal column widths (East Asian wide characters take two columns).
package enum DisplayWidth {
    package static func of(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + width($1) }
    }

    static func width(_ s: Unicode.Scalar) -> Int {
        switch s.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    package static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - of(text)))
    }

    /// `text` right-aligned in `width` columns.
    package static func padLeft(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - of(text))) + text
    }
}
