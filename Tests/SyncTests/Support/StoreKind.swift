import Testing

/// The sync server's two stores: every server test that takes one as its parameter runs on both.
enum StoreKind: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case files, postgres
    var testDescription: String { rawValue }
}
