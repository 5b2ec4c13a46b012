import LedgerCore

/// The name of an end-to-end encrypted account's device as the server keeps it beside the
/// device's token (Schemas/encryption.md §8, "Device names"): the device's own name record
/// (kind 3) sealed as every name is (§3, kind 6), written `sealed:` and its stored form in
/// base64url. The server stores it and lists it (`GET /v1/devices`) without reading it; devices
/// holding the key open it to show the name. A name in the clear is never kept for such an account.
package enum SealedDeviceName {
    package static let prefix = "sealed:"
    /// The longest text accepted: a name of 255 bytes, sealed and written out, fits.
    package static let maximumLength = 1_024

    /// Whether `text` is written as a sealed name (whether or not it reads).
    package static func isSealed(_ text: String) -> Bool { text.hasPrefix(prefix) }

    /// The text of a sealed name's stored form (one kind-6 sealed record).
    package static func text(of record: SealedRecords) -> String {
        prefix + Base64URL.encode(record.bytes)
    }

    /// The one sealed name `text` holds, checked as §3.6 says, or nil when it is not exactly one
    /// well-formed sealed device name of at most `maximumLength` characters.
    package static func record(in text: String) -> SealedRecords? {
        guard isSealed(text), text.utf8.count <= maximumLength,
              let bytes = Base64URL.decode(text.dropFirst(prefix.count)) else { return nil }
        var records = SealedRecords()
        let read: Void? = try? bytes.withUnsafeBytes { raw in
            try SealedRecordStream.forEach(in: raw) { view in
                guard view.kind == .name else { throw SealingError.record("not a device name") }
                records.append(view)
            }
        }
        guard read != nil, records.count == 1 else { return nil }
        return records
    }
}
