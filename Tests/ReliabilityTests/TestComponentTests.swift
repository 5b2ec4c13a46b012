import LedgerTestSupport
import Testing

/// The rule every test that needs an outside component follows (`TestComponent`): present, it
/// runs; missing, it is skipped with what to install, except under `CI=true`, where it fails
/// naming the component.
@Suite("TestComponent: a missing component is a skip on a developer's machine, a failure on CI")
struct TestComponentTests {
    static let present = TestComponent("the present tool", remedy: "nothing to do") { true }
    static let missing = TestComponent("the frobnicator", remedy: "apt-get install frobnicator") { false }

    @Test("check and the condition trait: run, skip or fail",
          arguments: [(present, false, "run"), (present, true, "run"), (missing, false, "skip"), (missing, true, "fail")])
    func outcome(component: TestComponent, underCI: Bool, expected: String) async throws {
        for evaluate in [{ try component.check(underCI: underCI) },
                         { try await ConditionTrait.requires(component, underCI: underCI).evaluate() }]
            as [@Sendable () async throws -> Bool] {
            let outcome: String
            do {
                outcome = try await evaluate() ? "run" : "skip"
            } catch let missing as TestComponent.Missing {
                #expect(missing.description == "CI=true but the frobnicator is missing, so the tests that need it cannot run: apt-get install frobnicator")
                outcome = "fail"
            }
            #expect(outcome == expected, "\(component.name), CI \(underCI)")
        }
    }

    @Test("the skip's reason names the component and what to install")
    func skipReason() {
        #expect(Self.missing.skipReason == "needs the frobnicator (apt-get install frobnicator)")
    }

    @Test("require passes a present component and throws for a missing one under CI")
    func require() throws {
        try Self.present.require(underCI: true)
        #expect(throws: TestComponent.Missing.self) { try Self.missing.require(underCI: true) }
    }
}
