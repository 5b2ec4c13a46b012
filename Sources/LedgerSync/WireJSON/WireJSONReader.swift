/// Reads the sync API's record-carrying bodies (Schemas/sync-api.yaml) straight from their bytes:
/// a push request (`{"records":[…]}`, read by the server) and a pull response (read by `sync` from a
/// server that answers JSON).
///
/// It takes only the plain shape real clients and servers send: each key at most once and all
/// known, strings of valid UTF-8, integers as digits without sign, fraction or exponent that fit
/// their field. Anything else (unknown or repeated keys, other number spellings, surrogate escapes,
/// bad UTF-8, wrong types, missing keys, deep nesting, trailing bytes) makes it answer nil, and the
/// caller decodes the body with Foundation's `JSONDecoder` as before, so every refusal keeps
/// today's status and message (`WireJSON.decode`).
package struct WireJSONReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The request in `body`, or nil when it is not of the plain shape.
    package static func pushRequest(_ body: UnsafeRawBufferPointer) -> PushRequest? {
        var reader = WireJSONReader(body.bindMemory(to: UInt8.self))
        guard reader.take(0x7B), let name = reader.keyName(), name == "records", let records = reader.records(),
              reader.take(0x7D), reader.atEnd() else { return nil }
        return PushRequest(records: records)
    }

    /// The response in `body` (its keys in any order), or nil when it is not of the plain shape.
    package static func pullResponse(_ body: UnsafeRawBufferPointer) -> PullResponse? {
        var reader = WireJSONReader(body.bindMemory(to: UInt8.self))
        return reader.pullResponse()
    }

    private mutating func pullResponse() -> PullResponse? {
        guard take(0x7B) else { return nil }
        var records: [WireRecord]?, more: Bool?, cursor: UInt64?, serverHas: [String: UInt64]?
        var serverDigests: [String: String]?, catalogVersion: UInt64?
        var seen = 0
        if !take(0x7D) {
            repeat {
                guard let name = keyName(), let bit = Self.pullKeys[name], seen & bit == 0 else { return nil }
                seen |= bit
                // A bad value leaves the body to Foundation, which decides.
                switch name {
                case "records": guard let value = self.records() else { return nil }; records = value
                case "more": guard let value = boolean() else { return nil }; more = value
                case "cursor": guard let value = integer(max: .max) else { return nil }; cursor = value
                case "server_has": guard let value = integerMap() else { return nil }; serverHas = value
                case "server_digests": guard let value = stringMap() else { return nil }; serverDigests = value
                default: guard let value = optionalInteger(max: UInt64(UInt32.max)) else { return nil }; catalogVersion = value
                }
            } while take(0x2C)
            guard take(0x7D) else { return nil }
        }
        guard atEnd(), let records, let more, let cursor, let serverHas, let serverDigests else { return nil }
        return PullResponse(records: records, more: more, cursor: cursor, serverHas: serverHas,
                            catalogVersion: catalogVersion.map { UInt32($0) }, serverDigests: serverDigests)
    }

    private static let pullKeys = ["records": 1, "more": 2, "cursor": 4, "server_has": 8, "server_digests": 16, "catalog_version": 32]

    /// `[record, …]`.
    private mutating func records() -> [WireRecord]? {
        guard take(0x5B) else { return nil }
        var records: [WireRecord] = []
        if take(0x5D) { return records }
        repeat {
            guard let record = record() else { return nil }
            records.append(record)
        } while take(0x2C)
        return take(0x5D) ? records : nil
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
        return integerMap().map { .some($0) }
    }

    /// `{"key":digits,…}`, each key once.
    private mutating func integerMap() -> [String: UInt64]? { map { $0.integer(max: .max) } }

    /// `{"key":"text",…}`, each key once.
    private mutating func stringMap() -> [String: String]? { map { $0.string() } }

    private mutating func map<V>(_ value: (inout Self) -> V?) -> [String: V]? {
        guard take(0x7B) else { return nil }
        var entries: [String: V] = [:]
        if take(0x7D) { return entries }
        repeat {
            guard let key = keyName(), entries[key] == nil, let v = value(&self) else { return nil }
            entries[key] = v
        } while take(0x2C)
        return take(0x7D) ? entries : nil
    }

    private mutating func boolean() -> Bool? {
        if takeWord(Self.trueBytes) { return true }
        return takeWord(Self.falseBytes) ? false : nil
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

    private mutating func takeNull() -> Bool { takeWord(Self.nullBytes) }

    private mutating func takeWord(_ word: [UInt8]) -> Bool {
        skipSpace()
        guard index + word.count <= bytes.count, bytes[index..<(index + word.count)].elementsEqual(word) else { return false }
        index += word.count
        return true
    }

    private static let nullBytes = Array("null".utf8), trueBytes = Array("true".utf8), falseBytes = Array("false".utf8)

    /// Nothing but whitespace left.
    private mutating func atEnd() -> Bool {
        skipSpace()
        return index == bytes.count
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
