import Dispatch
import RippleNodes
import Testing

/// The engine's non-owning reference to a downstream node (a plain `weak` reference since issue 29: no runtime entry
/// point looked up).
@Suite("Engine: non-owning target references")
struct TargetRefTests {
    final class Target {}

    @Test func upgradesWhileAliveAndFailsOnceFreed() {
        var target: Target? = Target()
        let reference = TargetRef(target!)
        let upgraded = reference.retained()
        #expect(upgraded?.takeUnretainedValue() === target)
        upgraded?.release()
        weak let watcher = target
        target = nil
        #expect(watcher == nil, "the reference must not keep its target alive")
        #expect(reference.retained() == nil)
    }

    /// One thread drops the last strong reference while another upgrades: the upgrade either gets that very object
    /// (alive until it releases it) or nil, never a freed one (the TSan and ASan passes run this), and once the
    /// object is gone no upgrade succeeds.
    @Test(.tags(.stress)) func upgradesRacingTheLastReleaseGetTheObjectOrNil() {
        for _ in 0..<20_000 {
            var target: Target? = Target()
            let address = UInt(bitPattern: Unmanaged.passUnretained(target!).toOpaque())
            let reference = TargetRef(target!)
            let group = DispatchGroup()
            nonisolated(unsafe) var wrongObject = false
            DispatchQueue.global().async(group: group) {
                if let strong = reference.retained() {
                    wrongObject = UInt(bitPattern: strong.toOpaque()) != address
                    strong.release()
                }
            }
            target = nil
            group.wait()
            #expect(!wrongObject)
            #expect(reference.retained() == nil)
        }
    }
}
