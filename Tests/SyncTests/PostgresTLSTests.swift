import Foundation
import LedgerCore
import LedgerTestSupport
import NIOHTTP1
import NIOSSL
@testable import SyncServerPostgres
import Testing

/// TLS to PostgreSQL (docs/server.md "Choosing a store", Schemas/server-store.md "Connection"): the URL's
/// `sslmode` and `sslrootcert`, read as libpq reads them, and the real `oritsubushi` connecting to
/// the test cluster, which speaks TLS with a certificate of its own CA (Tools/lib/postgres.sh).
@Suite("PostgreSQL store: TLS as the URL asks")
struct PostgresTLSTests {
    /// A CA certificate for the tests that only read URLs (made with openssl for this file; its
    /// key was thrown away, so it signed nothing).
    static let parseOnlyCA = """
        -----BEGIN CERTIFICATE-----
        MIIBqTCCAU+gAwIBAgIUa2f/qas1mNs6541s2JyBvrOIUVMwCgYIKoZIzj0EAwIw
        KTEnMCUGA1UEAwweb3JpdHN1YnVzaGkgcGFyc2Utb25seSB0ZXN0IENBMCAXDTI2
        MTEyNjA0NDQwMFoYDzIxMjYxMTAyMDQ0NDAwWjApMScwJQYDVQQDDB5vcml0c3Vi
        dXNoaSBwYXJzZS1vbmx5IHRlc3QgQ0EwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNC
        AAQHV3nTSGqYHBl/AuoHwZypEeiYHXMBmvTkRYOFVJePRpvXAPWrIbFtV+v2ZmB9
        vxoQjFpc//VOFKoMbFW5KDsBo1MwUTAdBgNVHQ4EFgQUfSL4jGWXhPhw40m4bd4a
        upsuX3YwHwYDVR0jBBgwFoAUfSL4jGWXhPhw40m4bd4aupsuX3YwDwYDVR0TAQH/
        BAUwAwEB/zAKBggqhkjOPQQDAgNIADBFAiBaWg/44aXxMU8LFWurFivj4rcb4RMr
        IIGZakC7uthzAgIhALHpkHKgf3wqQ1uVfs479w4Kc8T+ee2YGywYl3sJQmTr
        -----END CERTIFICATE-----

        """

    /// A private key that belongs to no certificate here (made with openssl for this file).
    static let strayKey = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgpDlWVwUMF8/QU+es
        FRv3QT6e7I0jOSIFHpCDvROpuYyhRANCAARSl7AmVPr8ZO3lUrx/PbkyfjTJxERj
        lJHkNKhXfgznp3IhlwnE31Zxf8OClpkhUyBh8GMcAzSj7RNzzRsjzy29
        -----END PRIVATE KEY-----

        """

    /// (query, mode, what NIOSSL is told to check; nil: no TLS at all). `CA` stands for a file of
    /// `parseOnlyCA`.
    static let modes: [(String, PostgresTLS.Mode, CertificateVerification?)] = [
        ("", .prefer, CertificateVerification.none),
        ("?sslmode=disable", .disable, nil),
        ("?sslmode=allow", .allow, CertificateVerification.none),
        ("?sslmode=prefer", .prefer, CertificateVerification.none),
        ("?sslmode=require", .require, CertificateVerification.none),
        ("?sslmode=require&sslrootcert=CA", .require, .noHostnameVerification),  // libpq: a root file makes require verify-ca
        ("?sslmode=verify-ca&sslrootcert=CA", .verifyCA, .noHostnameVerification),
        ("?sslmode=verify-full&sslrootcert=CA", .verifyFull, .fullVerification),
        ("?sslrootcert=CA&sslmode=verify-full", .verifyFull, .fullVerification),
    ]

    @Test("sslmode and sslrootcert read as libpq spells them; no sslmode is prefer", arguments: 0..<modes.count)
    func readsModes(_ index: Int) throws {
        let (query, mode, verification) = Self.modes[index]
        let dir = try TemporaryDirectory("pg-tls-modes")
        defer { dir.remove() }
        try Self.parseOnlyCA.write(toFile: dir.sub("ca.crt"), atomically: true, encoding: .utf8)
        let location = try PostgresLocation(url: "postgres://alice@db.example:5433/ledger" + query.replacingOccurrences(of: "CA", with: dir.sub("ca.crt")))
        #expect(location.tls.mode == mode, "\(query)")
        #expect(location.tls.configuration?.certificateVerification == verification, "\(query)")
        #expect(location.tls.rootCertificates.count == (query.contains("CA") ? 1 : 0), "\(query)")
        #expect(location.redacted == "postgres://alice@db.example:5433/ledger" + (mode == .prefer ? "" : "?sslmode=\(mode.rawValue)"))
    }

    /// (URL tail, exit status, words of the one-sentence error). `DIR` is a temporary directory
    /// holding `not-pem.crt` (text, no certificate), `ca.crt` (`parseOnlyCA`) and `stray.key`
    /// (`strayKey`, not its key).
    static let refusals: [(String, Int32, String)] = [
        ("127.0.0.1:9/d?sslmode=verify", 64, "sslmode=verify is not one of disable, allow, prefer, require, verify-ca, verify-full"),
        ("127.0.0.1:9/d?sslmode=", 64, "sslmode= is not one of"),
        ("127.0.0.1:9/d?sslmode=verify-full", 64, "sslmode=verify-full needs sslrootcert=FILE"),
        ("127.0.0.1:9/d?sslmode=verify-ca", 64, "sslmode=verify-ca needs sslrootcert=FILE"),
        ("/d?host=/run/postgresql&sslmode=require", 64, "sslmode=require needs a TCP host: a Unix socket (the host parameter) is never encrypted"),
        ("127.0.0.1:9/d?sslmode=require&sslcert=DIR/ca.crt", 64, "sslcert and sslkey go together"),
        ("127.0.0.1:9/d?sslmode=require&sslkey=DIR/stray.key", 64, "sslcert and sslkey go together"),
        ("127.0.0.1:9/d?sslcert=DIR/ca.crt&sslkey=DIR/stray.key&sslpassword=x", 64, "sslpassword is not supported"),
        ("127.0.0.1:9/d?sslcert=DIR/ca.crt&sslkey=DIR/missing.key", 66, "sslkey DIR/missing.key does not exist"),
        ("127.0.0.1:9/d?sslcert=DIR/ca.crt&sslkey=DIR/not-pem.crt", 65, "sslkey DIR/not-pem.crt holds no PEM private key"),
        ("127.0.0.1:9/d?sslcert=DIR/not-pem.crt&sslkey=DIR/stray.key", 65, "sslcert DIR/not-pem.crt holds no PEM certificate"),
        ("127.0.0.1:9/d?sslcert=DIR/ca.crt&sslkey=DIR/stray.key", 65, "sslkey DIR/stray.key is not the key of sslcert DIR/ca.crt"),
        ("127.0.0.1:9/d?sslmode=verify-full&sslrootcert=DIR/missing.crt", 66, "sslrootcert DIR/missing.crt does not exist"),
        ("127.0.0.1:9/d?sslmode=verify-full&sslrootcert=DIR", 74, "sslrootcert DIR cannot be read"),
        ("127.0.0.1:9/d?sslmode=require&sslrootcert=DIR/not-pem.crt", 65, "sslrootcert DIR/not-pem.crt holds no PEM certificate"),
    ]

    @Test("a bad sslmode, sslrootcert, sslcert or sslkey is refused before anything connects or listens: one sentence, its exit status",
          arguments: 0..<refusals.count)
    func refusesBadValues(_ index: Int) async throws {
        let dir = try TemporaryDirectory("pg-tls-refusals")
        defer { dir.remove() }
        try "not a certificate\n".write(toFile: dir.sub("not-pem.crt"), atomically: true, encoding: .utf8)
        try Self.parseOnlyCA.write(toFile: dir.sub("ca.crt"), atomically: true, encoding: .utf8)
        try Self.strayKey.write(toFile: dir.sub("stray.key"), atomically: true, encoding: .utf8)
        let (tail, status, words) = Self.refusals[index]
        let url = "postgres://postgres@" + tail.replacingOccurrences(of: "DIR", with: dir.path)
        for command in [["server", "serve", "--port", "0"], ["server", "users"]] {
            // Port 9 (discard) has no server: a URL that got past the check would wait out the
            // 10-s deadline and exit 69 instead.
            let result = try await CLI.run(command + ["--store", url], environment: ["ORITSUBUSHI_PG_START_TIMEOUT": "10"])
            Self.expectRefusal(result, status, words.replacingOccurrences(of: "DIR", with: dir.path), command)
        }
    }

    /// A refused command: its exit status, and one line on stderr holding `words` (no "listening").
    static func expectRefusal(_ result: CLI.Result, _ status: Int32, _ words: String, _ command: [String],
                              sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == status, "\(command): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(words), "\(result.stderr)", sourceLocation: sourceLocation)
        let lines = result.stderr.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(!result.stderr.contains("listening"), "\(result.stderr)", sourceLocation: sourceLocation)
    }

    /// A fresh database of the TLS test cluster as `--store` names it, for `user` at `host`, with
    /// `query` (where `CA/` stands for the cluster's TLS directory).
    static func store(_ user: String, _ host: String, _ query: String) async throws -> (TestPostgres.Database, String) {
        let tls = try #require(TestPostgres.tlsDirectory)
        let database = try await TestPostgres.database()
        let url = database.url.replacingOccurrences(of: "postgres@127.0.0.1:", with: "\(user)@\(host):")
            + query.replacingOccurrences(of: "CA/", with: tls + "/")
        return (database, url)
    }

    /// (user, host, query, whether the session is TLS); `CA/` is the cluster's TLS directory.
    /// 127.0.0.2 is an address of the cluster that its certificate does not name: verify-ca
    /// accepts it. The cluster admits `oritsubushi_cert` by its client certificate alone.
    static let connections: [(String, String, String, Bool)] = [
        ("postgres", "127.0.0.1", "?sslmode=require", true),
        ("postgres", "127.0.0.1", "?sslmode=verify-full&sslrootcert=CA/ca.crt", true),
        ("postgres", "localhost", "?sslmode=verify-full&sslrootcert=CA/ca.crt", true),
        ("postgres", "127.0.0.2", "?sslmode=verify-ca&sslrootcert=CA/ca.crt", true),
        ("postgres", "127.0.0.1", "", true),  // prefer: TLS since the server offers it
        ("postgres", "127.0.0.1", "?sslmode=disable", false),
        ("oritsubushi_cert", "127.0.0.1", "?sslmode=verify-full&sslrootcert=CA/ca.crt&sslcert=CA/client.crt&sslkey=CA/client.key", true),
    ]

    @Test("serve connects as sslmode asks, and pg_stat_ssl shows its sessions encrypted or not",
          .requiresPostgresTLS, arguments: 0..<connections.count)
    func connects(_ index: Int) async throws {
        let (user, host, query, encrypted) = Self.connections[index]
        let (database, url) = try await Self.store(user, host, query)
        let server = try await ServerProcess(storeArguments: ["--store", url])
        defer { server.terminate() }
        // A request first, so that the pool holds a session now: it closes one idle for a minute,
        // which a test starved of CPU by the whole suite may let pass, so it is asked again then.
        var sessions: [String] = []
        for _ in 0..<3 where sessions.isEmpty {
            let (status, _, _) = try await testRequest(.GET, server.url + "/v1/status", token: "ots_unknown", json: nil)
            #expect(status == 401, "the store answers through that connection")
            // The sessions of the serve process: every one on this database but the query's own.
            sessions = try await database.sql("""
                SELECT a.usename || ' ' || s.ssl::text || ' ' || coalesce(s.client_dn, '-')
                FROM pg_stat_ssl s JOIN pg_stat_activity a ON a.pid = s.pid
                WHERE a.datname = current_database() AND a.pid <> pg_backend_pid()
                """)
        }
        let session = "\(user) \(encrypted) " + (query.contains("sslcert") ? "/CN=\(user)" : "-")
        #expect(!sessions.isEmpty, "serve holds no session on \(database.name)")
        #expect(sessions.allSatisfy { $0 == session }, "\(url): \(sessions)")
        await #expect(server.stop() == 0)
        await database.drop()
    }

    /// (user, host, query, words of the refusal).
    static let failures: [(String, String, String, String)] = [
        ("postgres", "127.0.0.1", "?sslmode=verify-full&sslrootcert=CA/other-ca.crt",
         "the server's certificate is not signed by a CA of sslrootcert"),
        ("postgres", "127.0.0.2", "?sslmode=verify-full&sslrootcert=CA/ca.crt",
         "the server's certificate is not issued for 127.0.0.2 (sslmode=verify-full)"),
        ("oritsubushi_cert", "127.0.0.1", "?sslmode=verify-full&sslrootcert=CA/ca.crt",
         "SQLSTATE 28000 (class 28, invalid authorization: the login was refused): connection requires a valid client certificate"),
    ]

    @Test("verify-full refuses a certificate of another CA or for another host, and a login the server refuses, at once: exit 69 naming why, nothing written",
          .requiresPostgresTLS, arguments: 0..<failures.count)
    func refusesCertificate(_ index: Int) async throws {
        let (user, host, query, words) = Self.failures[index]
        let (database, url) = try await Self.store(user, host, query)
        for command in [["server", "serve", "--port", "0"], ["server", "users"]] {
            let started = Date()
            // The suite's long deadline: the refusal must not wait for it (the pool would retry).
            let result = try await CLI.run(command + ["--store", url], environment: ["ORITSUBUSHI_PG_START_TIMEOUT": "120"])
            Self.expectRefusal(result, 69, words, command)
            #expect(Date().timeIntervalSince(started) < 60, "\(command) took \(Date().timeIntervalSince(started)) s")
        }
        let tables = try await database.sql("SELECT count(*)::text FROM information_schema.tables WHERE table_schema = 'public'")
        #expect(tables == ["0"], "no schema was created")
        await database.drop()
    }
}
