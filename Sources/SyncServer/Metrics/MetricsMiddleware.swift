import LedgerCore
import Hummingbird
import NIOCore

/// Counts and times every request for `SyncMetrics`, each failure by the status and kind the
/// client gets (`SyncServerError(serving:)`, the mapping `SyncErrorMiddleware` answers with).
struct MetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: SyncMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let method = request.method.rawValue
        func record(_ status: Int, _ reason: String?) {
            let elapsed = ContinuousClock.now - start
            let nanoseconds = UInt64(max(0, elapsed.components.seconds)) * 1_000_000_000
                + UInt64(max(0, elapsed.components.attoseconds / 1_000_000_000))
            metrics.recordRequest(route: Self.route(context.endpointPath), method: method, status: status,
                                  nanoseconds: nanoseconds, reason: reason)
        }
        do {
            let response = try await next(request, context)
            record(response.status.code, nil)
            return response
        } catch let error as any HTTPResponseError where !(error is SyncServerError) {
            // The router's own answers (an unknown path or method).
            record(error.status.code, error.status.code == 404 ? "not_found" : "method_not_allowed")
            throw error
        } catch {
            // Classified as `SyncErrorMiddleware` answers it, whichever of the two runs first.
            let answer = SyncServerError(serving: error)
            record(answer.status.code, Self.reason(answer))
            throw error
        }
    }

    /// The `route` label: the matched path pattern, or `unmatched` for an unknown path (which
    /// Hummingbird's router marks "NotFound"), so that probes cannot create labels.
    static func route(_ endpointPath: String?) -> String {
        guard let endpointPath, endpointPath != "NotFound" else { return "unmatched" }
        return endpointPath
    }

    /// The `reason` label of a refusal: the error code of the answer, except that a push
    /// refused by the clock bound (Schemas/merge.md, a device dated over a day ahead) is
    /// `clock_bound`, told apart from other 409s by the merger's cause; and a 503 is
    /// `damage` (a user's stored data went bad) or `outage` (the database cannot be reached, a
    /// ledger is held: retrying heals it), which `SyncMetrics` counts in separate series.
    static func reason(_ error: SyncServerError) -> String {
        if error.refusal == .clockAhead { return "clock_bound" }
        if error.kind == .unavailable { return error.damage == nil ? "outage" : "damage" }
        return error.kind.code
    }
}
