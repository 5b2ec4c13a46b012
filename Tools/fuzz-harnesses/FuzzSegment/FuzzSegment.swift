// libFuzzer entry point for the segment reader and the record decoder (Tools/fuzz FuzzSegment).
// Build: swift build --product FuzzSegment --sanitize fuzzer --sanitize address --scratch-path .build-fuzz
// A plain `swift build` links it as an executable that does nothing.
import LedgerTestSupport

nonisolated(unsafe) private let fuzzing = SegmentFuzzing()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSegment(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzing.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
