import LedgerCore
import LedgerSync
import ServiceLifecycle

/// A store that counts the records it accepts and sends (`SyncMetrics`, `events_pushed_total`
/// and `events_pulled_total`) and forwards everything else unchanged; `serve` wraps its store in
/// one, so the HTTP handlers need not know about metrics.
package struct MeteredStorage: SyncStorage {
    package let base: any SyncStorage
    package let metrics: SyncMetrics

    package init(_ base: any SyncStorage, metrics: SyncMetrics) {
        (self.base, self.metrics) = (base, metrics)
    }

    package var kind: String { base.kind }

    package func user(forTokenHash hash: String) async throws -> String? { try await base.user(forTokenHash: hash) }

    package func pullAnswer(user: String, request: PullRequest, as representation: WireRepresentation) async throws -> PullAnswer {
        let answer = try await base.pullAnswer(user: user, request: request, as: representation)
        metrics.recordPulled(answer.records.count)
        return answer
    }

    package func push(user: String, request: PushRequest) async throws -> PushResponse {
        let response = try await base.push(user: user, request: request)
        metrics.recordPushed(response.appended)
        return response
    }

    package func push(user: String, records: EncodedRecords) async throws -> PushResponse {
        let response = try await base.push(user: user, records: records)
        metrics.recordPushed(response.appended)
        return response
    }

    package func status(user: String) async throws -> StoreStatus { try await base.status(user: user) }

    package var pairingAttempts: any PairingAttempts { base.pairingAttempts }
    package var limits: SyncLimits { base.limits }

    package func redeemPairingCode(_ code: PairingCode, tokenHash: String, deviceName: String, now: Int64) async throws -> Pairing {
        try await base.redeemPairingCode(code, tokenHash: tokenHash, deviceName: deviceName, now: now)
    }

    package func accountEncryption(user: String) async throws -> AccountEncryption? { try await base.accountEncryption(user: user) }
    package func registerKey(user: String, fingerprint: String) async throws -> AccountEncryption {
        try await base.registerKey(user: user, fingerprint: fingerprint)
    }
    package func rotateKey(user: String, to epoch: UInt32, previousWrapped: [UInt8], fingerprint: String) async throws -> AccountEncryption {
        try await base.rotateKey(user: user, to: epoch, previousWrapped: previousWrapped, fingerprint: fingerprint)
    }

    package func devices(user: String) async throws -> [UserDevice] { try await base.devices(user: user) }
    package func addLinkCode(user: String, code: PairingCode, deviceName: String?, wrappedKey: [UInt8]?, now: Int64, expires: Int64) async throws {
        try await base.addLinkCode(user: user, code: code, deviceName: deviceName, wrappedKey: wrappedKey, now: now, expires: expires)
    }
    package func renameDevice(user: String, tokenHash: String, name: String) async throws -> UserDevice {
        try await base.renameDevice(user: user, tokenHash: tokenHash, name: name)
    }
    package func revokeDevice(user: String, id: String, now: Int64) async throws -> UserDevice {
        try await base.revokeDevice(user: user, id: id, now: now)
    }
    package func pullSealed(user: String, request: PullRequest) async throws -> SealedPullAnswer {
        let answer = try await base.pullSealed(user: user, request: request)
        metrics.recordPulled(answer.records.count)
        return answer
    }
    package func convert(user: String, fingerprint: String, records: SealedRecords) async throws -> ConversionAnswer {
        try await base.convert(user: user, fingerprint: fingerprint, records: records)
    }
    package func pushSealed(user: String, records: SealedRecords) async throws -> PushResponse {
        let response = try await base.pushSealed(user: user, records: records)
        metrics.recordPushed(response.appended)
        return response
    }
    package func noteSync(user: String, tokenHash: String, now: Int64) async { await base.noteSync(user: user, tokenHash: tokenHash, now: now) }
    package func revocation(ofTokenHash hash: String) async throws -> Int64? { try await base.revocation(ofTokenHash: hash) }

    package var services: [any Service] { base.services }
    package func start() async throws { try await base.start() }
    package func close() async { await base.close() }

    package func logDescription(of error: any Error) -> String { base.logDescription(of: error) }
}
