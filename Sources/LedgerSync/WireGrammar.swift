import LedgerCore

/// The exact grammar of the sync API's text fields (Schemas/sync-api.yaml states the same as
/// patterns): what a client sends is accepted exactly when the published schema says it is valid,
/// so the API description and the server never disagree.
package enum WireGrammar {
    /// A device id on the wire: 16 lowercase hex digits, not all zero (`DeviceHex`).
    package static func device(_ text: String) -> DeviceID? {
        guard text.utf8.count == 16, text.utf8.allSatisfy(isLowercaseHexDigit) else { return nil }
        return DeviceID(hex: text)
    }

    /// An hlc on the wire: a decimal u64 without leading zeros, at most 17999999999999999999 (`Hlc`:
    /// a 48-bit millisecond part beyond the year 10,000 is never a clock, and the bound keeps the
    /// grammar a regular expression).
    package static func hlc(_ text: String) -> UInt64? {
        let digits = Array(text.utf8)
        guard (1...20).contains(digits.count), digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        if digits.count > 1 && digits[0] == 0x30 { return nil }
        if digits.count == 20 && !(digits[0] == 0x31 && digits[1] <= 0x37) { return nil }
        return UInt64(text)
    }

    /// The largest hlc the grammar admits (`hlc`), for records that arrive as frames.
    package static let maximumHLC: UInt64 = 17_999_999_999_999_999_999

    private static func isLowercaseHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66)
    }
}
