import Foundation
import LedgerCore
import NIOSSL
import PostgresNIO

/// How the connection to PostgreSQL is encrypted: the URL's `sslmode`, `sslrootcert`, `sslcert`
/// and `sslkey` parameters, spelled and meant as libpq's (docs/server.md "Choosing a store",
/// Schemas/server-store.md "Connection"). Without `sslmode` it is libpq's default, `prefer`, so
/// that a URL that works with `psql` means the same here: TLS whenever the server offers it.
package struct PostgresTLS: Sendable, Equatable {
    package enum Mode: String, Sendable, CaseIterable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    package var mode: Mode
    /// `sslrootcert`: the file of the CA certificates that signed the server's certificate.
    var rootCertificateFile: String?
    /// Its certificates, read once when the URL is read (a bad file is refused before any start).
    var rootCertificates: [NIOSSLCertificate]
    /// `sslcert` and `sslkey`: the client's certificate (chain) and its key, for a server that
    /// logs users in by certificate (`cert` in pg_hba.conf); both or neither.
    var clientCertificates: [NIOSSLCertificate]
    var clientKey: NIOSSLPrivateKey?

    /// Reads the TLS parameters from a URL's query; `refuse` words a usage error. A Unix socket is
    /// never encrypted (postgres-nio, like libpq, speaks TLS over TCP only), so a mode that
    /// insists on TLS is refused for one.
    init(query: [URLQueryItem], unixSocket: Bool, refuse: (String) -> LedgerError) throws {
        func value(_ name: String) -> String? { query.last(where: { $0.name == name })?.value }
        let modeText = value("sslmode")
        guard let mode = modeText.map(Mode.init(rawValue:)) ?? .prefer else {
            let modes = Mode.allCases.map(\.rawValue).joined(separator: ", ")
            throw refuse("sslmode=\(modeText ?? "") is not one of \(modes)")
        }
        if unixSocket && ![.disable, .allow, .prefer].contains(mode) {
            throw refuse("sslmode=\(mode.rawValue) needs a TCP host: a Unix socket (the host parameter) is never encrypted")
        }
        if mode == .verifyCA || mode == .verifyFull, value("sslrootcert") == nil {
            throw refuse("sslmode=\(mode.rawValue) needs sslrootcert=FILE, the CA certificates that signed the server's certificate")
        }
        if value("sslpassword") != nil {
            throw refuse("sslpassword is not supported: give sslkey a key file that is not encrypted (readable by this user alone)")
        }
        if (value("sslcert") == nil) != (value("sslkey") == nil) {
            throw refuse("sslcert and sslkey go together: the client's certificate and its private key")
        }
        self.mode = mode
        rootCertificateFile = value("sslrootcert")
        rootCertificates = try rootCertificateFile.map { try Self.certificates("sslrootcert", $0) } ?? []
        clientCertificates = try value("sslcert").map { try Self.certificates("sslcert", $0) } ?? []
        clientKey = try value("sslkey").map { path in
            let bytes = try Self.contents("sslkey", path)
            guard let key = try? NIOSSLPrivateKey(bytes: bytes, format: .pem) else {
                throw LedgerError(.badInput, "sslkey \(path) holds no PEM private key that is not encrypted", file: path)
            }
            return key
        }
        if let clientKey, let certificate = value("sslcert"), let key = value("sslkey") {
            // BoringSSL refuses a key that does not match the certificate when it is loaded.
            var pair = TLSConfiguration.makeClientConfiguration()
            pair.certificateChain = clientCertificates.map { .certificate($0) }
            pair.privateKey = .privateKey(clientKey)
            guard (try? NIOSSLContext(configuration: pair)) != nil else {
                throw LedgerError(.badInput, "sslkey \(key) is not the key of sslcert \(certificate)", file: key)
            }
        }
    }

    /// The bytes of the file a parameter names: 66 when it does not exist, 74 when it cannot be read.
    private static func contents(_ parameter: String, _ path: String) throws -> [UInt8] {
        guard FileManager.default.fileExists(atPath: path) else {
            throw LedgerError(.missingLedger, "\(parameter) \(path) does not exist", file: path)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LedgerError(.io, "\(parameter) \(path) cannot be read", file: path)
        }
        return Array(data)
    }

    /// The PEM certificates of the file a parameter names; 65 when it holds none.
    private static func certificates(_ parameter: String, _ path: String) throws -> [NIOSSLCertificate] {
        let bytes = try contents(parameter, path)
        guard let certificates = try? NIOSSLCertificate.fromPEMBytes(bytes), !certificates.isEmpty else {
            throw LedgerError(.badInput, "\(parameter) \(path) holds no PEM certificate", file: path)
        }
        return certificates
    }

    /// Whether a connection can fail because of TLS itself (the server offers none, or its
    /// certificate is not accepted): `require` and the verifying modes.
    var isStrict: Bool { [.require, .verifyCA, .verifyFull].contains(mode) }

    /// NIOSSL's client configuration, nil without TLS. Only the verify modes check the server's
    /// certificate, and `require` with `sslrootcert` checks its chain as `verify-ca` does (libpq's
    /// rule). `allow` is `prefer`: postgres-nio cannot first try without TLS, and both connect
    /// whether or not the server offers it.
    var configuration: TLSConfiguration? {
        guard mode != .disable else { return nil }
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch mode {
        case .verifyFull: configuration.certificateVerification = .fullVerification
        case .verifyCA: configuration.certificateVerification = .noHostnameVerification
        case .require where !rootCertificates.isEmpty: configuration.certificateVerification = .noHostnameVerification
        default: configuration.certificateVerification = .none
        }
        if configuration.certificateVerification != .none { configuration.trustRoots = .certificates(rootCertificates) }
        if let clientKey {
            configuration.certificateChain = clientCertificates.map { .certificate($0) }
            configuration.privateKey = .privateKey(clientKey)
        }
        return configuration
    }

    /// The pool's TLS setting.
    var client: PostgresClient.Configuration.TLS {
        guard let configuration else { return .disable }
        return isStrict ? .require(configuration) : .prefer(configuration)
    }

    /// The same for a single connection (the start's check, `PostgresStore.checkTLS`).
    func connection() throws -> PostgresConnection.Configuration.TLS {
        guard let configuration else { return .disable }
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: configuration)
        } catch {
            // Not met: the files were read and the key matched its certificate when the URL was read.
            throw LedgerError(.badInput, "the TLS files of --store cannot be used: \(error)")
        }
        return isStrict ? .require(context) : .prefer(context)
    }

    /// A connection failure caused by TLS, in one clause; nil for any other failure.
    func describe(_ error: any Error, host: String) -> String? {
        var cause = error
        if let error = error as? PSQLError {
            if error.code == .sslUnsupported { return "the server does not offer TLS (sslmode=\(mode.rawValue))" }
            guard let underlying = error.underlying else { return nil }
            cause = underlying
        }
        if let cause = cause as? NIOSSLExtraError, cause == .failedToValidateHostname {
            return "the server's certificate is not issued for \(host) (sslmode=verify-full)"
        }
        guard case NIOSSLError.handshakeFailed(let failure) = cause else { return nil }
        // BoringSSL's error stack names the reason after the library: "…:OPENSSL_internal:CERTIFICATE_VERIFY_FAILED at …".
        let reason = "\(failure)".firstMatch(of: /OPENSSL_internal:([A-Z0-9_]+)/).map { String($0.1) } ?? "\(failure)"
        if reason == "CERTIFICATE_VERIFY_FAILED", let rootCertificateFile {
            return "the server's certificate is not signed by a CA of sslrootcert \(rootCertificateFile) (or it has expired)"
        }
        return "the TLS handshake failed (\(reason))"
    }
}
