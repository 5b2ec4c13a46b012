import AsyncHTTPClient
import Foundation
import Hummingbird
import LedgerCore
import LedgerSync
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle
import SyncClient
import SyncServer

/// The real sync server on 127.0.0.1 and a port the kernel picks, run in-process.
struct TestServer {
    let port: Int
    let data: String
    let store: FilesStore
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    var url: String { "http://127.0.0.1:\(port)" }

    static func start(data: String, stations: any StationDirectory = AnyPositiveStation(),
                      maximumBodyBytes: Int = 8 << 20, tuning: FilesStore.Tuning = FilesStore.Tuning(),
                      offersFrames: Bool = true) async throws -> TestServer {
        var logger = Logger(label: "sync-test")
        logger.logLevel = .critical
        let store = try FilesStore(dataDirectory: data, stations: stations, tuning: tuning)
        var configuration = SyncHTTPServer.Configuration()
        configuration.port = 0
        configuration.maximumBodyBytes = maximumBodyBytes
        configuration.offersFrames = offersFrames
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = SyncHTTPServer.makeApplication(
            storage: store, configuration: configuration, logger: logger,
            onRunning: { continuation.yield($0) })
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let task = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw LedgerError(.unavailable, "the test server did not start") }
        return TestServer(port: port, data: data, store: store, group: group, task: task)
    }

    /// Graceful shutdown, then the ledgers are closed (their locks released).
    func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
        await store.close()
    }

    func addUser(_ name: String) throws -> String {
        try UserStore(dataDirectory: data).addUser(name, now: 1_700_000_000_000)
    }

    /// A raw request, for the refusal tests: (status, JSON body).
    func request(_ method: HTTPMethod, _ path: String, token: String?, body: [UInt8]? = nil) async throws -> (Int, [String: Any]) {
        let (status, _, object) = try await exchange(method, path, token: token, body: body)
        return (status, object)
    }

    /// The same with the response's headers.
    func exchange(_ method: HTTPMethod, _ path: String, token: String?, body: [UInt8]? = nil) async throws -> (Int, HTTPHeaders, [String: Any]) {
        let (status, headers, bytes) = try await testRequest(method, url + path, token: token, json: body)
        let object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:]
        return (status, headers, object)
    }

    func session(_ token: String) throws -> SyncSession {
        SyncSession(connection: try SyncConnection(server: url, token: token))
    }
}

func json(_ object: Any) throws -> [UInt8] { Array(try JSONSerialization.data(withJSONObject: object)) }

/// One request to a test server, as any client sends it: (status, headers, body bytes).
func testRequest(_ method: HTTPMethod, _ url: String, token: String?, json body: [UInt8]?,
                 contentType: String = "application/json", accept: String? = nil,
                 headers: [(String, String)] = []) async throws -> (Int, HTTPHeaders, [UInt8]) {
    var request = HTTPClientRequest(url: url)
    request.method = method
    for (name, value) in headers { request.headers.add(name: name, value: value) }
    if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
    if let accept { request.headers.add(name: "Accept", value: accept) }
    if let body {
        request.headers.add(name: "Content-Type", value: contentType)
        request.body = .bytes(ByteBuffer(bytes: body))
    }
    // Generous: a safety net against a hang, not a speed check (sanitizer builds on a busy machine are slow).
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
    let bytes = try await response.body.collect(upTo: 64 << 20)
    return (Int(response.status.code), response.headers, Array(bytes.readableBytesView))
}
