#if canImport(Glibc)
import Glibc
#endif
import SyncServer

/// A crash test's hook for the real server (debug builds only, as `FaultInjectingFileSystem`):
/// with ORITSUBUSHI_KILL_AT_CONVERSION=STEP (`AccountConversion.Step`'s names), `serve` kills
/// itself with SIGKILL right after that step of an account's conversion, so that the test can
/// start it again and see the conversion finish with nothing lost (Schemas/encryption.md §9).
/// A release build has no hook and ignores the variable.
enum ConversionKillHook {
    static let environmentVariable = "ORITSUBUSHI_KILL_AT_CONVERSION"

    static func fromEnvironment() -> (@Sendable (AccountConversion.Step) -> Void)? {
        #if ORITSUBUSHI_FAULT_HOOKS
        guard let name = getenv(environmentVariable).map({ String(cString: $0) }), let step = AccountConversion.Step(rawValue: name) else {
            return nil
        }
        return { reached in if reached == step { kill(getpid(), SIGKILL) } }
        #else
        return nil
        #endif
    }
}
