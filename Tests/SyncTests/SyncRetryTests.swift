import AsyncHTTPClient
import Foundation
import LedgerTestSupport
import NIOCore
@testable import SyncClient
import Testing

/// `sync` against a server that closes a connection as a request goes out (a raw-socket relay,
/// `ScriptedProxy`, in front of the built `serve`): a request is sent again once, the retry is
/// said (`--verbose`) and counted, the report's "pushed" is the same as for a sync that lost
/// nothing, and two closes in a row are "cannot reach the server" (exit 69).
@Suite("sync tells the truth about a retried request")
struct SyncRetryTests {
    /// A server, and for each case a user of its own and a ledger with three stations completed.
    struct Setup {
        let dir: TemporaryDirectory
        let server: ServerProcess

        func ledger(_ name: String) async throws -> (ledger: String, token: String) {
            func run(_ arguments: [String]) async throws -> CLI.Result {
                let result = try await CLI.run(arguments, environment: [:])
                result.expectSuccess()
                return result
            }
            let added = try await run(["server", "add-user", name, "--data", dir.sub("server")])
            let token = added.stdout.split(separator: "\n").last.map(String.init) ?? ""
            let ledger = dir.sub(name)
            _ = try await run(["init", "--ledger", ledger])
            for station in ["202758", "120004", "300260"] {
                _ = try await run(["complete", station, "2024-05-03", "--ledger", ledger])
            }
            return (ledger, token)
        }

        func sync(_ ledger: String, token: String, via url: String) async throws -> CLI.Result {
            try await CLI.run(["sync", "--ledger", ledger, "--server", url, "--token", token, "--verbose"], environment: [:])
        }
    }

    static func pushed(_ output: String) -> Int? {
        output.firstMatch(of: /pushed (\d+)/).flatMap { Int($0.1) }
    }

    @Test("a lost push answer, then a connection closed at once: one retry each, the same report as without")
    func retriesAreTruthful() async throws {
        let dir = try TemporaryDirectory("sync-retry")
        defer { dir.remove() }
        let server = try await ServerProcess(data: dir.sub("server"))
        defer { server.terminate() }
        let setup = Setup(dir: dir, server: server)

        let control = try await setup.ledger("control")
        let plain = try await setup.sync(control.ledger, token: control.token, via: server.url)
        plain.expectSuccess()
        let expected = try #require(Self.pushed(plain.stdout), "\(plain.stdout)")
        #expect(expected >= 3)
        #expect(!plain.stdout.contains("sent again"), "\(plain.stdout)")

        for (name, closeAtOnce, losePushAnswers) in [("lost", 0, 1), ("closed", 1, 0)] {
            let proxy = try ScriptedProxy(target: server.port, closeAtOnce: closeAtOnce, losePushAnswers: losePushAnswers)
            let replica = try await setup.ledger(name)
            let result = try await setup.sync(replica.ledger, token: replica.token, via: proxy.url)
            result.expectSuccess()
            #expect(Self.pushed(result.stdout) == expected, "\(name): \(result.stdout) (\(proxy.log))")
            #expect(result.stdout.contains("1 request sent again after the server closed the connection"), "\(name): \(result.stdout)")
            #expect(result.stderr.contains("sent again on a new connection"), "--verbose says so: \(result.stderr)")
            #expect(result.stderr.components(separatedBy: "sent again on a new connection").count == 2, "one retry: \(result.stderr)")
        }
    }

    /// A close is seen as one of several errors depending on when it lands (before, while or
    /// after the request is written): each is one retry; a refused or timed-out connect is none.
    @Test("every way a close under a request shows is retried; a refused connect is not")
    func closesAreRecognised() {
        let closes: [any Error] = [
            HTTPClientError.remoteConnectionClosed, ChannelError.ioOnClosedChannel, ChannelError.outputClosed,
            ChannelError.eof, IOError(errnoCode: EPIPE, reason: "write"), IOError(errnoCode: ECONNRESET, reason: "read"),
        ]
        for error in closes {
            #expect(SyncConnection.closedUnderRequest(error), "\(error)")
            #expect(SyncConnection.unreachableReason(error) == "the server closed the connection", "\(error)")
        }
        let others: [any Error] = [
            HTTPClientError.connectTimeout, HTTPClientError.readTimeout, IOError(errnoCode: ECONNREFUSED, reason: "connect"),
        ]
        for error in others { #expect(!SyncConnection.closedUnderRequest(error), "\(error)") }
    }

    @Test("two closes in a row: cannot reach the server, exit 69, nothing claimed")
    func twoClosesInARow() async throws {
        let dir = try TemporaryDirectory("sync-retry-twice")
        defer { dir.remove() }
        let server = try await ServerProcess(data: dir.sub("server"))
        defer { server.terminate() }
        let setup = Setup(dir: dir, server: server)
        let proxy = try ScriptedProxy(target: server.port, closeAtOnce: 2)
        let replica = try await setup.ledger("twice")
        let result = try await setup.sync(replica.ledger, token: replica.token, via: proxy.url)
        #expect(result.status == 69, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("cannot reach"), "\(result.stderr)")
        #expect(!result.stdout.contains("synced with"), "\(result.stdout)")
    }
}
