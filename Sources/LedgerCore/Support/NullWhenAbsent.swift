/// An optional that a synthesized `Encodable` writes as JSON `null` when absent, instead of
/// leaving its key out: the answers and `--json` lines whose keys are all present, unknown values
/// null (Schemas/sync-api.yaml, docs/ledger-cli.md), need no hand-written `encode(to:)`.
@propertyWrapper
package struct NullWhenAbsent<Value: Encodable & Sendable>: Encodable, Sendable {
    package var wrappedValue: Value?

    package init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}
