// libFuzzer entry point for the sync server's request decoding (Tools/fuzz FuzzSyncRequest).
// A plain `swift build` links it as an executable that does nothing.
import LedgerTestSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSyncRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    SyncRequestFuzzing.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
