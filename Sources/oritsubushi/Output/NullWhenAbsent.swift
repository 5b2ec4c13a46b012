/// An optional that is written as `null` when absent (synthesized `Encodable` leaves an absent
/// optional's key out); the commands' single objects always list every key.
@propertyWrapper
struct NullWhenAbsent<Value: Encodable>: Encodable {
    var wrappedValue: Value?

    init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}
