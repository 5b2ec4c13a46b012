#if canImport(Glibc)
import Glibc
#endif

/// Standard output written through a pointer, flushed in 1 MiB blocks: the `replay` lines are
/// built here byte by byte, with no copy-on-write check or reference count per append.
/// Between lines, `flushIfFull()` leaves at least `slack` bytes free, which holds any line
/// `EventLineWriter` builds piecewise (a memo is at most 4096 bytes, 6 per byte escaped); a
/// larger block (`append(_: UnsafeRawBufferPointer)`) makes room for itself.
struct ByteSink: ~Copyable {
    static let block = 1 << 20
    static let slack = 1 << 16
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity = ByteSink.block + ByteSink.slack
    private var count = 0
    private let fd: Int32

    init(fd: Int32 = STDOUT_FILENO) {
        self.fd = fd
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    mutating func append(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if count + bytes.count > capacity {
            flush()
            if bytes.count > capacity {
                Terminal.write(fd: fd, bytes)
                return
            }
        }
        if let source = bytes.baseAddress {
            UnsafeMutableRawPointer(base + count).copyMemory(from: source, byteCount: bytes.count)
        }
        count += bytes.count
    }

    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    mutating func append(_ text: StaticString) {
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A u64 in decimal.
    mutating func appendDecimal(_ value: UInt64) {
        if value < 10 {
            append(UInt8(truncatingIfNeeded: 0x30 + value))
            return
        }
        var digits = 0
        var rest = value
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        rest = value
        var index = count + digits
        while rest > 0 {
            index -= 1
            base[index] = UInt8(truncatingIfNeeded: 0x30 + rest % 10)
            rest /= 10
        }
        count += digits
    }

    /// Two decimal digits (0…99).
    mutating func appendTwoDigits(_ value: Int) {
        base[count] = UInt8(truncatingIfNeeded: 0x30 + value / 10)
        base[count + 1] = UInt8(truncatingIfNeeded: 0x30 + value % 10)
        count += 2
    }

    mutating func flushIfFull() {
        if count >= Self.block { flush() }
    }

    /// Writes what is buffered (after anything `print` buffered, so that the order holds).
    mutating func flush() {
        fflushStdout()
        Terminal.write(fd: fd, UnsafeRawBufferPointer(start: base, count: count))
        count = 0
    }
}
