import RippleCore
import RippleNodes
import RippleTesting

enum NodesLeakWorkload {
    /// Every node operator, listened to, driven, then dropped.
    static func run() {
        let bag = CancelBag()
        let scheduler = TestScheduler()
        let a = MutableNode(1)
        let b = MutableNode(2)
        let chain = a.map { $0 * 2 }.filter { $0 >= 0 }.distinctUntilChanged().skip(1).take(100)
            .scan(start: 0) { $0 + $1 }
        let timed = a.throttle(.seconds(1), on: scheduler).delay(.seconds(1), on: scheduler)
            .deliver(on: scheduler)
        let combined = Node.combine(a, b).mapEach { $0 + $1 }
        let zipped = Node.zip(a, b).map { $0.0 - $0.1 }
        let merged = a.merge(b).fork()
        let branches = a.if { $0 > 2 }
        let switched = a.switch { $0.isMultiple(of: 2) ? "even" : "odd" }
        let even = switched.case("even")
        let flattened = a.flattenMap { value in Node(value) }
        let synced = MutableNode<Int>()
        let sync = synced.syncWith(b)
        for node in [chain, timed, combined, zipped, merged, branches.thenNode, even, flattened] {
            node.listened(by: bag).withBlock { _ in }
        }
        for value in 2...6 {
            a.value = value
            b.value = value * 10
        }
        scheduler.advance(by: .seconds(5))
        sync.cancel()
        bag.cancel()
    }

    /// A node kept alive by the caller, to prove the check catches a leak.
    static func leakOneNode() -> AnyObject {
        MutableNode(1)
    }
}
