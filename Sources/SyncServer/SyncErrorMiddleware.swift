import Hummingbird
import LedgerCore
import Logging

/// Turns whatever a handler throws into a `SyncServerError` (which Hummingbird renders) and
/// logs it: a refusal at notice level (no token ever appears in it), a failure of the server
/// itself or a user's damaged stored data at error level with its cause. An unauthorised
/// request is not logged, so a client probing tokens cannot fill the log.
struct SyncErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger
    /// Path → its one method: the router's "no route" becomes 405 with `Allow` on these paths.
    let declaredMethods: [String: HTTPRequest.Method]
    /// The store's words for a failure in the log (`SyncStorage.logDescription`).
    var describe: @Sendable (any Error) -> String = { "\($0)" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            // The router found no route: another method on a declared path, or an unknown path.
            if let allowed = declaredMethods[request.uri.path] {
                throw SyncServerError(.methodNotAllowed, "\(request.uri.path) accepts only \(allowed.rawValue)", allow: allowed.rawValue)
            }
            throw SyncServerError(.notFound, "there is no endpoint \(request.uri.path); see Schemas/sync-api.yaml")
        } catch let error as any HTTPResponseError where !(error is SyncServerError) {
            throw error  // the router's other answers
        } catch {
            let answer = SyncServerError(serving: error)
            switch answer.kind {
            case .unauthorized:
                break
            case .unavailable where answer.damage != nil:
                // Stored data went bad: the operator must act (`server verify`, `server repair`).
                logger.error("stored ledger damaged", metadata: ["path": "\(request.uri.path)", "error": "\(answer.damage!)"])
            case .internal:
                logger.error(error is LedgerError ? "ledger failure" : "unexpected failure",
                             metadata: ["path": "\(request.uri.path)", "error": "\(describe(error))"])
            default:
                logger.notice("refused", metadata: ["path": "\(request.uri.path)", "status": "\(answer.status.code)",
                                                    "reason": "\(answer.message)"])
            }
            throw answer
        }
    }
}
