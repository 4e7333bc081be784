import Dispatch
import RippleCore
import RippleNodes
import Testing

@Suite("Engine: one transform re-pointed from several threads")
struct ConcurrentRelinkTests {
    /// Two threads point one transform's `to` at a node and at nothing, over and over. However they interleave, the
    /// node lists the transform upstream exactly when the transform points at it: a stale upstream entry would keep
    /// the transform and its source alive for good.
    @Test(.tags(.stress)) func upstreamListAgreesWithToAfterRacingRelinks() {
        let source = MutableNode(1)
        let target = MutableNode<Int>()
        let transform = Transform<Int, Int>()
        transform.from = source
        for _ in 0..<20 {
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                for round in 0..<2_000 {
                    transform.to = (round + thread).isMultiple(of: 2) ? target : nil
                }
            }
            let listed = target.upstreamTransforms.filter { $0 === transform }.count
            #expect(listed == (transform.to === target ? 1 : 0))
            transform.to = nil
            #expect(target.upstreamTransforms.isEmpty)
        }
    }
}
