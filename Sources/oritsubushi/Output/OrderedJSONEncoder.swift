import LedgerCore

/// Writes an `Encodable` value as one line of JSON with object keys in the order `encode(to:)`
/// gives them. Foundation's `JSONEncoder` on Linux writes keys in hash order (or sorted), and
/// the commands' single-object outputs (verify, status, conflicts, repair) have a fixed key order
/// that scripts may compare byte for byte; strings go through `JSONText.quoted` and numbers are
/// printed as Swift prints them (`2.0`, not `2`), exactly as those outputs always were.
/// Optionals encoded with `encode` (not `encodeIfPresent`) become `null`.
struct OrderedJSONEncoder {
    func encode<T: Encodable>(_ value: T) throws -> String {
        let root = JSONSlot()
        try root.store(value)
        return root.text
    }
}

/// One value being written: a literal, or an object or array of further slots.
private final class JSONSlot {
    enum Content {
        case literal(String)
        case object([(key: String, value: JSONSlot)])
        case array([JSONSlot])
    }

    var content = Content.literal("null")

    var text: String {
        switch content {
        case .literal(let text): return text
        case .object(let members):
            return "{" + members.map { JSONText.quoted($0.key) + ":" + $0.value.text }.joined(separator: ",") + "}"
        case .array(let items): return "[" + items.map(\.text).joined(separator: ",") + "]"
        }
    }

    /// Scalars are written here (the containers' primitive methods all arrive at the generic
    /// `encode`); anything else encodes itself into this slot.
    func store<T: Encodable>(_ value: T) throws {
        switch value {
        case let text as String: content = .literal(JSONText.quoted(text))
        case let flag as Bool: content = .literal(flag ? "true" : "false")
        case let number as any BinaryInteger: content = .literal("\(number)")
        case let number as any BinaryFloatingPoint: content = .literal("\(number)")
        default: try value.encode(to: JSONSlotEncoder(slot: self))
        }
    }

    func member(_ key: String) -> JSONSlot {
        let slot = JSONSlot()
        guard case .object(var members) = content else { content = .object([(key, slot)]); return slot }
        members.append((key, slot))
        content = .object(members)
        return slot
    }

    func item() -> JSONSlot {
        let slot = JSONSlot()
        guard case .array(var items) = content else { content = .array([slot]); return slot }
        items.append(slot)
        content = .array(items)
        return slot
    }

    var count: Int {
        if case .array(let items) = content { return items.count }
        return 0
    }
}

private struct JSONSlotEncoder: Encoder, SingleValueEncodingContainer {
    let slot: JSONSlot
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = slot.content {} else { slot.content = .object([]) }
        return KeyedEncodingContainer(Keyed(slot: slot))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = slot.content {} else { slot.content = .array([]) }
        return Unkeyed(slot: slot)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }
    mutating func encodeNil() { slot.content = .literal("null") }
    mutating func encode<T: Encodable>(_ value: T) throws { try slot.store(value) }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let slot: JSONSlot
        var codingPath: [any CodingKey] = []
        mutating func encodeNil(forKey key: Key) { _ = slot.member(key.stringValue) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try slot.member(key.stringValue).store(value) }
        mutating func nestedContainer<Nested: CodingKey>(keyedBy type: Nested.Type, forKey key: Key) -> KeyedEncodingContainer<Nested> {
            JSONSlotEncoder(slot: slot.member(key.stringValue)).container(keyedBy: type)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            JSONSlotEncoder(slot: slot.member(key.stringValue)).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { JSONSlotEncoder(slot: slot.member("super")) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { JSONSlotEncoder(slot: slot.member(key.stringValue)) }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let slot: JSONSlot
        var codingPath: [any CodingKey] = []
        var count: Int { slot.count }
        mutating func encodeNil() { _ = slot.item() }
        mutating func encode<T: Encodable>(_ value: T) throws { try slot.item().store(value) }
        mutating func nestedContainer<Nested: CodingKey>(keyedBy type: Nested.Type) -> KeyedEncodingContainer<Nested> {
            JSONSlotEncoder(slot: slot.item()).container(keyedBy: type)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { JSONSlotEncoder(slot: slot.item()).unkeyedContainer() }
        mutating func superEncoder() -> any Encoder { JSONSlotEncoder(slot: slot.item()) }
    }
}
