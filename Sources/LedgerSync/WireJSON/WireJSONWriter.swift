import LedgerCore

/// Writes the sync API's pull responses and push requests as the bytes Foundation's
/// `JSONEncoder` (`.sortedKeys`) gives, without building an encoder's value tree per record: the
/// keys below are listed in that sorted order, strings go through `JSONText.appendEncoderQuoted`.
/// WireJSONTests compares both on seeded random records; `Tools/wire-json-bench` measures both.
package struct WireJSONWriter {
    package private(set) var bytes: [UInt8] = []

    package init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    /// `{"catalog_version":…,"cursor":…,"more":…,"records":[…],"server_digests":{…},"server_has":{…}}`.
    package mutating func write(_ response: PullResponse) {
        bytes.append(0x7B)
        if let version = response.catalogVersion { key("catalog_version"); number(UInt64(version)); comma() }
        key("cursor"); number(response.cursor); comma()
        key("more"); bytes.append(contentsOf: response.more ? Self.trueBytes : Self.falseBytes); comma()
        key("records"); write(response.records); comma()
        key("server_digests"); dictionary(response.serverDigests) { w, v in JSONText.appendEncoderQuoted(v, to: &w.bytes) }
        comma()
        key("server_has"); dictionary(response.serverHas) { w, v in w.number(v) }
        bytes.append(0x7D)
    }

    /// `{"records":[…]}`.
    package mutating func write(_ request: PushRequest) {
        bytes.append(0x7B)
        key("records"); write(request.records)
        bytes.append(0x7D)
    }

    package mutating func write(_ records: [WireRecord]) {
        bytes.append(0x5B)
        for (index, record) in records.enumerated() {
            if index > 0 { comma() }
            write(record)
        }
        bytes.append(0x5D)
    }

    /// One record: its present fields, keys sorted, absent optionals left out (as `encodeIfPresent`).
    package mutating func write(_ record: WireRecord) {
        bytes.append(0x7B)
        if let v = record.catalogVersion { key("catalog_version"); number(UInt64(v)); comma() }
        if let v = record.compDate { key("comp_date"); number(UInt64(v)); comma() }
        key("device"); string(record.device); comma()
        key("hlc"); string(record.hlc); comma()
        key("kind"); string(record.kind)
        if let v = record.knowledge { comma(); key("knowledge"); dictionary(v) { w, seq in w.number(seq) } }
        if let v = record.memo { comma(); key("memo"); string(v) }
        if let v = record.name { comma(); key("name"); string(v) }
        if let v = record.origin { comma(); key("origin"); string(v) }
        if let v = record.seq { comma(); key("seq"); number(v) }
        if let v = record.station { comma(); key("station"); number(UInt64(v)) }
        bytes.append(0x7D)
    }

    private mutating func dictionary<V>(_ values: [String: V], _ value: (inout Self, V) -> Void) {
        bytes.append(0x7B)
        // `.sortedKeys` orders by the keys' bytes (device ids: 16 hex digits).
        for (index, entry) in values.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }).enumerated() {
            if index > 0 { comma() }
            string(entry.key)
            bytes.append(0x3A)
            value(&self, entry.value)
        }
        bytes.append(0x7D)
    }

    private mutating func key(_ name: StaticString) {
        bytes.append(0x22)
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(0x22)
        bytes.append(0x3A)
    }

    private mutating func string(_ text: String) { JSONText.appendEncoderQuoted(text, to: &bytes) }

    private mutating func comma() { bytes.append(0x2C) }

    private mutating func number(_ value: UInt64) {
        guard value > 0 else { bytes.append(0x30); return }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                      UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0 {
                buffer[19 - count] = UInt8(truncatingIfNeeded: rest % 10) + 0x30
                rest /= 10
                count += 1
            }
            bytes.append(contentsOf: buffer[(20 - count)...])
        }
    }

    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)
}
