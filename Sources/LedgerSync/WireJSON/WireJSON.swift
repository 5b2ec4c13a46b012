import Foundation

/// The sync API's JSON bodies, coded as they always were: pull responses and push requests by the
/// streaming `WireJSONWriter`/`WireJSONReader` (no `JSONEncoder`/`JSONDecoder` per record), every
/// other body, and every push body not of the plain shape, by Foundation (`.sortedKeys`).
package enum WireJSON {
    /// The bytes of `value` as `JSONEncoder` with `.sortedKeys` writes them.
    package static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        if let response = value as? PullResponse {
            var writer = WireJSONWriter(capacity: 256 + response.records.count * 120)
            writer.write(response)
            return writer.bytes
        }
        if let request = value as? PushRequest {
            var writer = WireJSONWriter(capacity: 16 + request.records.count * 120)
            writer.write(request)
            return writer.bytes
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array(try encoder.encode(value))
    }

    /// `body` decoded as `JSONDecoder` decodes it, with its errors when it refuses.
    package static func decode<T: Decodable>(_ type: T.Type, from body: UnsafeRawBufferPointer) throws -> T {
        if type == PushRequest.self, let request = WireJSONReader.pushRequest(body), let value = request as? T {
            return value
        }
        return try JSONDecoder().decode(type, from: Data(body))
    }
}
