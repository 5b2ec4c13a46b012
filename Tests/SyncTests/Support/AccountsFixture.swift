import Foundation
import LedgerTestSupport
import NIOHTTP1
import Testing

/// A store with an end-to-end encrypted account `hana` (made by the built
/// `server add-user --encrypted`) and a plaintext account `ken`, served by the built `serve` on
/// loopback: the encryption tests' starting point (EncryptedAccountTests, LinkKeyTransportTests).
struct AccountsFixture {
    let dir: TemporaryDirectory
    let store: CommandLineStore
    /// The tokens `add-user` printed.
    let hana: String
    let ken: String
    let server: ServerProcess

    var url: String { server.url }

    static func start(_ kind: StoreKind, _ label: String) async throws -> AccountsFixture {
        let dir = try TemporaryDirectory(label)
        do {
            let store = try await CommandLineStore.make(kind, in: dir)
            let hana = try CommandLineStore.token(try await store.server("add-user", "hana", "--encrypted"))
            let ken = try await store.addUser("ken")
            return AccountsFixture(dir: dir, store: store, hana: hana, ken: ken, server: try await store.serve())
        } catch {
            dir.remove()
            throw error
        }
    }

    /// For a `defer`: the server stopped, the directory removed.
    func stop() {
        server.terminate()
        dir.remove()
    }

    /// One JSON request to the server: (status, the answer's object).
    func call(_ method: HTTPMethod, _ path: String, token: String?, _ body: Any? = nil) async throws -> (Int, [String: Any]) {
        try await Self.call(method, url + path, token: token, body)
    }

    static func call(_ method: HTTPMethod, _ url: String, token: String?, _ body: Any? = nil) async throws -> (Int, [String: Any]) {
        let (status, _, bytes) = try await testRequest(method, url, token: token, json: try body.map(json))
        return (status, (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:])
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
}
