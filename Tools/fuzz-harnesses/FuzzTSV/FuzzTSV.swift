// libFuzzer entry point for the oritsubushi-tsv importer (Tools/fuzz FuzzTSV).
// A plain `swift build` links it as an executable that does nothing.
import LedgerTestSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTSV(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    ImportFuzzing.tsv(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
