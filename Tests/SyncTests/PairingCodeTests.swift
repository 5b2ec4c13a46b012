import Testing
@testable import SyncServer

/// `server pair --ttl` and the link it prints (the pairing code's own reading is covered by the
/// phone app's tests and `/v1/pair`'s).
@Suite struct PairingCodeTests {
    @Test(arguments: [("90s", Int64(90_000)), ("10m", 600_000), ("2h", 7_200_000), ("1d", 86_400_000),
                      ("7d", 604_800_000), ("60", 60_000), ("1m", 60_000)])
    func durationsInBounds(text: String, milliseconds: Int64) {
        #expect(PairingCode.lifetime(text) == milliseconds)
    }

    @Test(arguments: ["30s", "59", "8d", "169h", "", "m", "10x", "-5m", "1.5h", "１０m", "99999999999d"])
    func otherTextsAreNoLifetime(text: String) {
        #expect(PairingCode.lifetime(text) == nil)
    }

    @Test func theLinkCarriesTheCanonicalCode() throws {
        let code = try #require(PairingCode(typed: "k3qz-8m2t"))
        #expect(code.appLink(base: "http://192.168.1.5:8080/") == "http://192.168.1.5:8080/app/#pair=K3QZ8M2T")
        #expect(code.appLink(base: "https://sync.example") == "https://sync.example/app/#pair=K3QZ8M2T")
    }
}
