import LedgerSync
import Testing

/// `EventDigest` is the first 16 bytes of SHA-256 as 32 lowercase hex digits (Schemas/merge.md
/// §10): pinned to the standard's test vectors, since every other test compares digests made by
/// this same code on both sides.
@Suite struct EventDigestTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb924"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039"),
    ])
    func firstHalfOfSHA256(input: String, expected: String) {
        let digest = Array(input.utf8).withUnsafeBytes { EventDigest.hex($0) }
        #expect(digest == expected)
        #expect(EventDigest.isWellFormed(digest))
    }
}
