/// Reads a push request body (`{"records":[…]}`, Schemas/sync-api.yaml) straight from its bytes.
///
/// It takes only the plain shape real clients send: the one top-level key, each record's keys at
/// most once and all known, strings of valid UTF-8, integers as digits without sign, fraction or
/// exponent that fit their field. Anything else (unknown or repeated keys, other number spellings,
/// surrogate escapes, bad UTF-8, wrong types, missing keys, deep nesting, trailing bytes) makes it
/// answer nil, and the caller decodes the body with Foundation's `JSONDecoder` as before, so every
/// refusal keeps today's status and message (`WireJSON.decode`).
package struct WireJSONReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The request in `body`, or nil when it is not of the plain shape.
    package static func pushRequest(_ body: UnsafeRawBufferPointer) -> PushRequest? {
        var reader = WireJSONReader(body.bindMemory(to: UInt8.self))
        return reader.pushRequest()
    }

    private mutating func pushRequest() -> PushRequest? {
        guard take(0x7B), let name = keyName(), name == "records", take(0x5B) else { return nil }
        var records: [WireRecord] = []
        if !take(0x5D) {
            repeat {
                guard let record = record() else { return nil }
                records.append(record)
            } while take(0x2C)
            guard take(0x5D) else { return nil }
        }
        guard take(0x7D) else { return nil }
        skipSpace()
        return index == bytes.count ? PushRequest(records: records) : nil
    }

    private mutating func record() -> WireRecord? {
        guard take(0x7B) else { return nil }
        var fields = WireRecordFields()
        if take(0x7D) { return fields.record() }
        repeat {
            guard let name = keyName(), fields.read(name, from: &self) else { return nil }
        } while take(0x2C)
        guard take(0x7D) else { return nil }
        return fields.record()
    }

    // MARK: Values (each returns nil for "not the plain shape"; `null` is `.some(nil)`).

    mutating func optionalString() -> String?? {
        if takeNull() { return .some(nil) }
        return string().map { .some($0) }
    }

    mutating func optionalInteger(max: UInt64) -> UInt64?? {
        if takeNull() { return .some(nil) }
        return integer(max: max).map { .some($0) }
    }

    mutating func optionalKnowledge() -> [String: UInt64]?? {
        if takeNull() { return .some(nil) }
        guard take(0x7B) else { return nil }
        var entries: [String: UInt64] = [:]
        if take(0x7D) { return .some(entries) }
        repeat {
            guard let key = keyName(), entries[key] == nil, let value = integer(max: .max) else { return nil }
            entries[key] = value
        } while take(0x2C)
        return take(0x7D) ? .some(entries) : nil
    }

    /// A string followed by `:`.
    private mutating func keyName() -> String? {
        guard let name = string(), take(0x3A) else { return nil }
        return name
    }

    private mutating func integer(max: UInt64) -> UInt64? {
        skipSpace()
        let start = index
        var value: UInt64 = 0
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(UInt64(bytes[index] - 0x30))
            guard !o1, !o2 else { return nil }
            value = sum
            index += 1
        }
        let count = index - start
        guard count > 0, count == 1 || bytes[start] != 0x30, value <= max else { return nil }
        // A fraction or an exponent: Foundation reads `1.0` and `1e2` as integers; it decides.
        if index < bytes.count, bytes[index] == 0x2E || bytes[index] == 0x65 || bytes[index] == 0x45 { return nil }
        return value
    }

    private mutating func string() -> String? {
        skipSpace()
        guard index < bytes.count, bytes[index] == 0x22 else { return nil }
        index += 1
        let start = index
        // The common case: no escape, so the bytes are the string's.
        while index < bytes.count, bytes[index] != 0x22, bytes[index] != 0x5C, bytes[index] >= 0x20 { index += 1 }
        guard index < bytes.count else { return nil }
        if bytes[index] == 0x22 {
            let text = String(validating: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            index += 1
            return text
        }
        var out = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case 0x22: return String(validating: out, as: UTF8.self)
            case 0x5C:
                guard index < bytes.count, let unescaped = unescape() else { return nil }
                out.append(contentsOf: unescaped)
            case 0..<0x20: return nil
            default: out.append(byte)
            }
        }
        return nil
    }

    /// The bytes of the escape after a backslash; nil for a surrogate or a bad escape.
    private mutating func unescape() -> [UInt8]? {
        let byte = bytes[index]
        index += 1
        switch byte {
        case 0x22, 0x5C, 0x2F: return [byte]
        case 0x62: return [0x08]
        case 0x66: return [0x0C]
        case 0x6E: return [0x0A]
        case 0x72: return [0x0D]
        case 0x74: return [0x09]
        case 0x75:
            guard index + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let digit = Self.hexValue(bytes[index]) else { return nil }
                value = value << 4 | digit
                index += 1
            }
            guard let scalar = Unicode.Scalar(value) else { return nil }
            return Array(String(Character(scalar)).utf8)
        default: return nil
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 0x30...0x39: return UInt32(byte - 0x30)
        case 0x61...0x66: return UInt32(byte - 0x61 + 10)
        case 0x41...0x46: return UInt32(byte - 0x41 + 10)
        default: return nil
        }
    }

    private mutating func takeNull() -> Bool {
        skipSpace()
        guard index + 4 <= bytes.count, bytes[index] == 0x6E, bytes[index + 1] == 0x75,
              bytes[index + 2] == 0x6C, bytes[index + 3] == 0x6C else { return false }
        index += 4
        return true
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }
}
