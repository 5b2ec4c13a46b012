/// The one writer of the ledger's JSON documents whose key order is documented: the views' (map
/// pins, nearby lines, GeoJSON, the report's map data) and the CLI's JSON lines (`station find
/// --json`, `export --format jsonl`, `history --format jsonl`): their `Encodable` types written
/// with keys in the order the type encodes them. (`replay`'s per-event lines are the one
/// streaming writer: `EventLineWriter`.)
///
/// Why not Foundation's `JSONEncoder`: on Linux it orders keys by dictionary hashing unless
/// `.sortedKeys`, and it writes 135.0 as `135` and 0.0 as `0`; these documents keep the key order
/// and the numbers that docs/ledger-cli.md, Schemas/map.md and their tests give, byte for byte as before
/// (GeoJSON puts `type` first; positions are exact decimals of micro-degrees, `JSONExactNumber`).
/// Strings are escaped as every other JSON of the ledger (`JSONText.quoted`).
///
/// Measured (-O, a synthetic catalogue the size of v176: 9,520 Points and 623 LineStrings, the
/// 3.0 MB `export --format geojson --lines`, best of 5 on the 2-core machine): the hand-built
/// strings this replaced 46 ms, this writer 150–200 ms, `JSONEncoder` 105–130 ms for the Points
/// alone (2.6 MB). Speed is not why it exists; the bytes are.
package struct OrderedJSONEncoder {
    /// Arrays held under these keys put one element per line (`[\n a,\n b\n]`), so that a diff
    /// of two documents shows which element changed (the GeoJSON export's `features`).
    package var linePerElement: Set<String>

    package init(linePerElement: Set<String> = []) { self.linePerElement = linePerElement }

    /// `value` as JSON, without a trailing newline.
    package func encode(_ value: some Encodable) throws -> String {
        let root = JSONNode()
        try root.fill(with: value, codingPath: [])
        var out = ""
        write(root, key: nil, into: &out)
        return out
    }

    private func write(_ node: JSONNode, key: String?, into out: inout String) {
        switch node.kind {
        case .literal:
            out += node.literal
        case .array:
            let lines = key.map(linePerElement.contains) ?? false
            out += lines ? "[\n" : "["
            for (index, item) in node.items.enumerated() {
                if index > 0 { out += lines ? ",\n" : "," }
                write(item, key: nil, into: &out)
            }
            out += lines ? "\n]" : "]"
        case .object:
            out += "{"
            for (index, item) in node.items.enumerated() {
                if index > 0 { out += "," }
                out += JSONText.quoted(node.keys[index]) + ":"
                write(item, key: node.keys[index], into: &out)
            }
            out += "}"
        }
    }
}

/// A value written as the given number text rather than through `Double` (exact decimal degrees).
package protocol JSONExactNumber: Encodable {
    var jsonNumberText: String { get }
}

/// One value of the document being built; containers append to it in encoding order.
final class JSONNode {
    enum Kind { case literal, array, object }
    var kind = Kind.literal
    var literal = "null"
    var items: [JSONNode] = []
    /// The keys of an object, parallel to `items`.
    var keys: [String] = []

    func become(_ container: Kind) {
        guard kind != container else { return }
        (kind, items, keys) = (container, [], [])
    }

    func append(key: String?) -> JSONNode {
        let child = JSONNode()
        items.append(child)
        if let key { keys.append(key) }
        return child
    }

    func fill(with value: some Encodable, codingPath: [any CodingKey]) throws {
        if let exact = value as? any JSONExactNumber {
            literal = exact.jsonNumberText
        } else {
            try value.encode(to: NodeEncoder(node: self, codingPath: codingPath))
        }
    }

    func set(_ number: some BinaryInteger) { literal = "\(number)" }

    /// Swift's shortest round-trip text ("490.4", "0.0"), as the hand-built lines wrote it.
    func set(_ number: Double, _ codingPath: [any CodingKey]) throws {
        guard number.isFinite else {
            throw EncodingError.invalidValue(number, .init(codingPath: codingPath, debugDescription: "not a JSON number"))
        }
        literal = number.description
    }
}

private struct NodeEncoder: Encoder {
    let node: JSONNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.become(.object)
        return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.become(.array)
        return UnkeyedContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleContainer(node: node, codingPath: codingPath) }
}

private struct IndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let node: JSONNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.literal = "null" }
    mutating func encode(_ value: Bool) throws { node.literal = value ? "true" : "false" }
    mutating func encode(_ value: String) throws { node.literal = JSONText.quoted(value) }
    mutating func encode(_ value: Double) throws { try node.set(value, codingPath) }
    mutating func encode(_ value: Float) throws { try node.set(Double(value), codingPath) }
    mutating func encode(_ value: Int) throws { node.set(value) }
    mutating func encode(_ value: Int8) throws { node.set(value) }
    mutating func encode(_ value: Int16) throws { node.set(value) }
    mutating func encode(_ value: Int32) throws { node.set(value) }
    mutating func encode(_ value: Int64) throws { node.set(value) }
    mutating func encode(_ value: UInt) throws { node.set(value) }
    mutating func encode(_ value: UInt8) throws { node.set(value) }
    mutating func encode(_ value: UInt16) throws { node.set(value) }
    mutating func encode(_ value: UInt32) throws { node.set(value) }
    mutating func encode(_ value: UInt64) throws { node.set(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { try node.fill(with: value, codingPath: codingPath) }
}

/// Keyed and unkeyed containers put each value into a new child through `SingleContainer`.
private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: JSONNode
    let codingPath: [any CodingKey]

    private func child(_ key: Key) -> SingleContainer {
        SingleContainer(node: node.append(key: key.stringValue), codingPath: codingPath + [key])
    }

    mutating func encodeNil(forKey key: Key) throws { _ = child(key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { var c = child(key); try c.encode(value) }
    mutating func encode(_ value: String, forKey key: Key) throws { var c = child(key); try c.encode(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws { var c = child(key); try c.encode(value) }
    mutating func encode(_ value: Float, forKey key: Key) throws { var c = child(key); try c.encode(value) }
    mutating func encode(_ value: Int, forKey key: Key) throws { var c = child(key); try c.encode(value) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { var c = child(key); try c.encode(value) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { var c = child(key); try c.encode(value) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { var c = child(key); try c.encode(value) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { var c = child(key); try c.encode(value) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { var c = child(key); try c.encode(value) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { var c = child(key); try c.encode(value) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { var c = child(key); try c.encode(value) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { var c = child(key); try c.encode(value) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { var c = child(key); try c.encode(value) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { var c = child(key); try c.encode(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let c = child(key)
        return NodeEncoder(node: c.node, codingPath: c.codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let c = child(key)
        return NodeEncoder(node: c.node, codingPath: c.codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        NodeEncoder(node: node.append(key: "super"), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let c = child(key)
        return NodeEncoder(node: c.node, codingPath: c.codingPath)
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let node: JSONNode
    let codingPath: [any CodingKey]
    var count: Int { node.items.count }

    private func next() -> SingleContainer {
        let key = IndexKey(intValue: node.items.count)
        return SingleContainer(node: node.append(key: nil), codingPath: codingPath + [key])
    }

    mutating func encodeNil() throws { _ = next() }
    mutating func encode(_ value: Bool) throws { var c = next(); try c.encode(value) }
    mutating func encode(_ value: String) throws { var c = next(); try c.encode(value) }
    mutating func encode(_ value: Double) throws { var c = next(); try c.encode(value) }
    mutating func encode(_ value: Float) throws { var c = next(); try c.encode(value) }
    mutating func encode(_ value: Int) throws { var c = next(); try c.encode(value) }
    mutating func encode(_ value: Int8) throws { var c = next(); try c.encode(value) }
    mutating func encode(_ value: Int16) throws { var c = next(); try c.encode(value) }
    mutating func encode(_ value: Int32) throws { var c = next(); try c.encode(value) }
    mutating func encode(_ value: Int64) throws { var c = next(); try c.encode(value) }
    mutating func encode(_ value: UInt) throws { var c = next(); try c.encode(value) }
    mutating func encode(_ value: UInt8) throws { var c = next(); try c.encode(value) }
    mutating func encode(_ value: UInt16) throws { var c = next(); try c.encode(value) }
    mutating func encode(_ value: UInt32) throws { var c = next(); try c.encode(value) }
    mutating func encode(_ value: UInt64) throws { var c = next(); try c.encode(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { var c = next(); try c.encode(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let c = next()
        return NodeEncoder(node: c.node, codingPath: c.codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let c = next()
        return NodeEncoder(node: c.node, codingPath: c.codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let c = next()
        return NodeEncoder(node: c.node, codingPath: c.codingPath)
    }
}
