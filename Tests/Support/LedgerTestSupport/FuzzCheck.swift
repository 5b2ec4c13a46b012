/// How the fuzz harnesses (SegmentFuzzing, ImportFuzzing, SyncRequestFuzzing) report a broken
/// property. Under libFuzzer there is no handler and a violation traps, which is what libFuzzer
/// reports and keeps as a crashing input. The regression tests (FuzzRegressionTests) replay the
/// same inputs with a handler that records the violation as a test issue, so a regression fails
/// its test with the harness's sentence instead of stopping the whole test process.
package enum FuzzCheck {
    @TaskLocal package static var onViolation: (@Sendable (String) -> Void)?

    /// A property that must hold for every input.
    package static func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
        if !condition() { fail(message()) }
    }

    /// A property broken: trapped under libFuzzer, reported to the handler under a test (the
    /// harness then returns from the input, as nothing after the break can be trusted).
    package static func fail(_ message: String) {
        guard let report = onViolation else { preconditionFailure(message) }
        report(message)
    }
}
