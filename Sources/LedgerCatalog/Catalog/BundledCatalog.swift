import CCatalogData
import LedgerCore

/// The newest catalogue, shipped inside the executable: the original 降りつぶし.net apps' public
/// station database, version 176 (`stations-176.sql`, 2.4 MB), as one LZ4 frame (about 590 KB)
/// that Sources/CCatalogData links into `.rodata`. Nothing is read from disk, so a binary copied
/// on its own, with the build folder gone, still has its catalogue.
package enum BundledCatalog {
    package static let version: UInt32 = 176
    /// The dump's original name, used in messages and as the file of a failing statement.
    package static let fileName = "stations-\(version).sql"

    /// The decompressed dump, byte for byte the original file.
    package static func bytes() throws -> [UInt8] {
        let frame = UnsafeRawBufferPointer(start: oritsubushi_catalog_bytes(), count: oritsubushi_catalog_size())
        guard case .complete(let length, let contentSize) = LZ4Frame.extent(of: frame), length == frame.count else {
            throw LedgerError(.corruption, "the bundled catalogue is not one whole LZ4 frame", file: fileName)
        }
        // The content lives in the decoder's buffer: copy it out while the decoder is alive.
        let decoder = LZ4FrameDecoder()
        defer { withExtendedLifetime(decoder) {} }
        do {
            return Array(try decoder.decompress(frame: frame, contentSize: contentSize))
        } catch {
            throw LedgerError(.corruption, "the bundled catalogue does not decompress: \(error.reason)", file: fileName)
        }
    }

    /// The decompressed dump text.
    package static func sql() throws -> String {
        String(decoding: try bytes(), as: UTF8.self)
    }

    /// The dump split into statements as `catalog import` runs them.
    package static func statements() throws -> [DumpStatement] {
        try SQLDumpSplitter.split(try bytes(), file: fileName)
    }
}
