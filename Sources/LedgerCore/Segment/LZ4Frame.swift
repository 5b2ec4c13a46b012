import CLZ4

/// One standard LZ4 frame per batch of records (Schemas/segment-format.md §2).
package enum LZ4Frame {
    package static let magic: UInt32 = 0x184D_2204
    /// The largest decompressed content a frame may carry. Writers split larger batches.
    package static let maximumContentSize = 4 << 20

    /// Appends one frame holding `content` to `output`: independent blocks, block checksums,
    /// content checksum and content size on.
    package static func compress(_ content: UnsafeRawBufferPointer, appendingTo output: inout [UInt8]) {
        var prefs = LZ4F_preferences_t()
        prefs.frameInfo.blockSizeID = LZ4F_max4MB
        prefs.frameInfo.blockMode = LZ4F_blockIndependent
        prefs.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled
        prefs.frameInfo.blockChecksumFlag = LZ4F_blockChecksumEnabled
        prefs.frameInfo.contentSize = UInt64(content.count)
        prefs.compressionLevel = 0
        let bound = LZ4F_compressFrameBound(content.count, &prefs)
        let start = output.count
        // Grown by an array, not `repeatElement`: a debug build appends a repeated element one
        // generic call at a time (over a second for a 4 MiB frame), which the test suite felt.
        output.append(contentsOf: [UInt8](repeating: 0, count: bound))
        let written = output.withUnsafeMutableBytes { out in
            LZ4F_compressFrame(out.baseAddress! + start, bound, content.baseAddress, content.count, &prefs)
        }
        // Compression into a buffer of the documented bound cannot fail.
        precondition(LZ4F_isError(written) == 0, "LZ4F_compressFrame failed")
        output.removeLast(bound - written)
    }

    /// The structure of the frame starting at `bytes[0]`, found by walking its header and block
    /// sizes without decompressing.
    package enum Extent: Equatable {
        case complete(length: Int, contentSize: Int)
        /// The bytes end before the frame does: a torn write.
        case incomplete
        case malformed(String)
    }

    package static func extent(of bytes: UnsafeRawBufferPointer) -> Extent {
        let n = bytes.count
        guard n >= 7 else { return .incomplete }
        guard bytes.loadLE(UInt32.self, at: 0) == magic else { return .malformed("not an LZ4 frame") }
        let flg = bytes[4], bd = bytes[5]
        guard flg >> 6 == 1 else { return .malformed("unsupported LZ4 frame version") }
        let blockChecksum = flg & 0x10 != 0, hasContentSize = flg & 0x08 != 0
        let contentChecksum = flg & 0x04 != 0, hasDictID = flg & 0x01 != 0
        guard flg & 0x02 == 0, bd & 0x8F == 0, (4...7).contains(bd >> 4) else {
            return .malformed("bad LZ4 frame descriptor")
        }
        guard hasContentSize, blockChecksum, contentChecksum, !hasDictID else {
            return .malformed("an LZ4 frame lacks its content size or checksums")
        }
        let headerLength = 4 + 2 + 8 + 1
        guard n >= headerLength else { return .incomplete }
        let contentSize = bytes.loadLE(UInt64.self, at: 6)
        guard contentSize <= UInt64(maximumContentSize) else {
            return .malformed("an LZ4 frame declares \(contentSize) bytes of content, over the 4 MiB limit")
        }
        let maxBlock = 1 << (8 + 2 * Int(bd >> 4))
        var offset = headerLength
        while true {
            guard offset + 4 <= n else { return .incomplete }
            let word = bytes.loadLE(UInt32.self, at: offset)
            offset += 4
            if word == 0 { break }
            let size = Int(word & 0x7FFF_FFFF)
            guard size <= maxBlock else { return .malformed("an LZ4 block is larger than its frame allows") }
            offset += size + 4
            guard offset <= n else { return .incomplete }
        }
        offset += 4
        guard offset <= n else { return .incomplete }
        return .complete(length: offset, contentSize: Int(contentSize))
    }
}

/// Decompresses frames into a reusable buffer; one per reader.
package final class LZ4FrameDecoder {
    private var context: OpaquePointer?
    package private(set) var buffer: UnsafeMutableRawBufferPointer

    package init() {
        var dctx: OpaquePointer?
        let status = LZ4F_createDecompressionContext(&dctx, UInt32(LZ4F_VERSION))
        precondition(LZ4F_isError(status) == 0, "cannot create an LZ4 decompression context")
        context = dctx
        buffer = .allocate(byteCount: LZ4Frame.maximumContentSize, alignment: 16)
    }

    deinit {
        LZ4F_freeDecompressionContext(context)
        buffer.deallocate()
    }

    /// Decompresses exactly one complete frame (as measured by `LZ4Frame.extent`), verifying
    /// its block and content checksums. Returns the content, valid until the next call.
    package func decompress(frame: UnsafeRawBufferPointer, contentSize: Int) throws(LZ4DecodeFailure) -> UnsafeRawBufferPointer {
        var dstSize = buffer.count
        var srcSize = frame.count
        var options = LZ4F_decompressOptions_t()
        options.stableDst = 1
        let hint = LZ4F_decompress(context, buffer.baseAddress, &dstSize, frame.baseAddress, &srcSize, &options)
        if LZ4F_isError(hint) != 0 {
            let name = String(cString: LZ4F_getErrorName(hint))
            LZ4F_resetDecompressionContext(context)
            throw LZ4DecodeFailure(reason: name)
        }
        guard hint == 0, srcSize == frame.count, dstSize == contentSize else {
            LZ4F_resetDecompressionContext(context)
            throw LZ4DecodeFailure(reason: "the frame's content does not match its declared size")
        }
        return UnsafeRawBufferPointer(start: buffer.baseAddress, count: dstSize)
    }
}

package struct LZ4DecodeFailure: Error {
    package var reason: String
}

extension UnsafeRawBufferPointer {
    @inline(__always)
    package func loadLE<T: FixedWidthInteger>(_ type: T.Type, at offset: Int) -> T {
        T(littleEndian: loadUnaligned(fromByteOffset: offset, as: T.self))
    }
}
