import RippleNodes
import Testing

/// The engine's non-owning reference to a downstream node, on both of its paths: the runtime's `swift_tryRetain`
/// (what runs wherever the runtime's symbols are visible) and the weak-reference fallback.
@Suite("Engine: non-owning target references")
struct TargetRefTests {
    final class Target {}

    @Test func theRuntimeUpgradeIsFoundOnThisPlatform() {
        #expect(runtimeTryRetain != nil)
    }

    @Test(arguments: [true, false])
    func upgradesWhileAliveAndFailsOnceFreed(usesRuntime: Bool) {
        var target: Target? = Target()
        let reference = TargetRef(target!, tryRetain: usesRuntime ? runtimeTryRetain : nil)
        let upgraded = reference.retained()
        #expect(upgraded?.takeUnretainedValue() === target)
        upgraded?.release()
        weak let watcher = target
        target = nil
        #expect(watcher == nil, "the reference must not keep its target alive")
        #expect(reference.retained() == nil)
    }
}
