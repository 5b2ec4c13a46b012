import Foundation
import LedgerCore

/// The sync API's JSON bodies, coded as they always were: pull responses and push requests by the
/// streaming `WireJSONWriter`/`WireJSONReader` (no `JSONEncoder`/`JSONDecoder` per record) on
/// both sides of the wire, every other body, and every record body not of the plain shape, by
/// Foundation (`.sortedKeys`).
package enum WireJSON {
    /// False when `ORITSUBUSHI_WIRE_JSON=foundation`: every body through Foundation, as before the
    /// streaming coder, so that one binary measures both (a benchmark-only switch, BENCHMARKS.md).
    package static let streaming = ProcessInfo.processInfo.environment["ORITSUBUSHI_WIRE_JSON"] != "foundation"

    /// The bytes of `value` as `JSONEncoder` with `.sortedKeys` writes them.
    package static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        if streaming, let response = value as? PullResponse {
            var writer = WireJSONWriter(capacity: 256 + response.records.count * 120)
            writer.write(response)
            return writer.bytes
        }
        if streaming, let request = value as? PushRequest {
            var writer = WireJSONWriter(capacity: 16 + request.records.count * 120)
            writer.write(request)
            return writer.bytes
        }
        return try JSONEncoding.compact.encode(value)
    }

    /// `body` decoded as `JSONDecoder` decodes it, with its errors when it refuses.
    package static func decode<T: Decodable>(_ type: T.Type, from body: UnsafeRawBufferPointer) throws -> T {
        if streaming, type == PushRequest.self, let request = WireJSONReader.pushRequest(body), let value = request as? T {
            return value
        }
        if streaming, type == PullResponse.self, let response = WireJSONReader.pullResponse(body), let value = response as? T {
            return value
        }
        return try JSONDecoder().decode(type, from: Data(body))
    }
}
