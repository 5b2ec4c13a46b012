extension PairingCode {
    /// How long a code may work, in milliseconds: from a minute to 7 days (`server pair --ttl`).
    package static let lifetimes: ClosedRange<Int64> = 60_000...(7 * 86_400_000)

    /// `--ttl`: `90s`, `10m`, `2h`, `1d` or plain seconds, in milliseconds; nil when the text is
    /// not such a duration or the duration is outside `lifetimes`.
    package static func lifetime(_ text: String) -> Int64? {
        let units: [Character: Int64] = ["s": 1_000, "m": 60_000, "h": 3_600_000, "d": 86_400_000]
        var digits = Substring(text), unit: Int64 = 1_000
        if let last = text.last, let size = units[last] {
            digits = text.dropLast()
            unit = size
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let count = Int64(digits), count <= 1_000_000 else { return nil }
        return lifetimes.contains(count * unit) ? count * unit : nil
    }

    /// The link that opens the phone app with the code filled in (`BASE/app/#pair=CODE`; the app
    /// reads the fragment, docs/phone-app.md "Pairing a phone"), `base` being the server as the phone
    /// reaches it (a trailing slash is dropped).
    package func appLink(base: String) -> String {
        "\(base.hasSuffix("/") ? String(base.dropLast()) : base)/app/#pair=\(canonical)"
    }
}
