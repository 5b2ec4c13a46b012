import Foundation
import LedgerSync

/// Which body a sync request gets (Schemas/sync-frames.md §Negotiation): record frames when the
/// client's `Accept` names `application/x-oritsubushi-frames` with a quality above 0 and at least
/// that of JSON (`application/json`, `application/*` or `*/*`), JSON otherwise; a push is read as
/// frames when its `Content-Type` is the frames media type, as JSON otherwise.
package enum MediaNegotiation {
    /// Whether an answer to `accept` (the header's value, nil when absent) is frames.
    package static func prefersFrames(accept: String?) -> Bool {
        guard let accept else { return false }
        var frames: Double?
        var json: Double = 0
        for item in accept.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let type = parts.first, !type.isEmpty else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 0
            }
            switch type {
            case FramesBody.mediaType: frames = max(frames ?? 0, quality)
            case "application/json", "application/*", "*/*": json = max(json, quality)
            default: break
            }
        }
        guard let frames, frames > 0 else { return false }
        return frames >= json
    }

    /// Whether a request body with `contentType` is frames.
    package static func isFrames(contentType: String?) -> Bool {
        guard let contentType else { return false }
        let type = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        return type == FramesBody.mediaType
    }
}
