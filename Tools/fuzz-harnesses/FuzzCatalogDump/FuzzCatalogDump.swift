// libFuzzer entry point for the catalogue dump splitter (Tools/fuzz FuzzCatalogDump).
// A plain `swift build` links it as an executable that does nothing.
import LedgerTestSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCatalogDump(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    ImportFuzzing.catalogDump(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
