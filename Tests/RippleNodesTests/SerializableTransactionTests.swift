#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import RippleCore
import RippleNodes
import RippleTesting
import Synchronization
import Testing

// Issue 28, item 1: whatever threads set, batch, link or listen, every state a listener, a `value` read or a derived
// node shows is that of some serial order of whole transactions. Each test is one of the reproductions, run on
// real threads that start together (a spin barrier) over at least 10,000 rounds; engine 2 failed every one of them.

@Suite("Engine 3: transactions from several threads are serializable")
struct SerializableTransactionTests {
    /// `combine(a.map, a.map * 2)`, two threads setting `a`: the sink settles once per set, with both sides of it.
    @Test func aCombineOfTwoMapsSettlesOncePerSetWithBothSides() {
        let setsPerThread = rounds(10_000) / 2
        let bag = CancelBag()
        let a = MutableNode(0)
        let sink = Node.combine(a.map { $0 }, a.map { $0 &* 2 })
        let heard = Locked(0)
        let torn = Locked<[String]>([])
        sink.listened(by: bag).withBlock { pair in
            heard.withLock { $0 += 1 }
            if pair.1 != pair.0 &* 2 { torn.withLock { $0.append("\(pair)") } }
        }
        onThreads(2) { thread in
            for index in 1...setsPerThread { a.value = thread * 1_000_000 + index }
        }
        #expect(torn.value == [])
        #expect(heard.value == 2 * setsPerThread + 1)
        #expect(sink.value.map { [$0.0, $0.1] } == [a.value!, a.value! &* 2])
    }

    /// One thread batches `x = v; y = v`, another sets `z`: no listener of `combine(x, y, z)` sees half a batch.
    @Test func aBatchIsAtomicForEveryOtherThread() {
        let perThread = rounds(10_000) / 2
        let bag = CancelBag()
        let x = MutableNode(0), y = MutableNode(0), z = MutableNode(0)
        let heard = Locked(0)
        let torn = Locked<[String]>([])
        Node.combine(x, y, z).listened(by: bag).withBlock { triple in
            heard.withLock { $0 += 1 }
            if triple.0 != triple.1 { torn.withLock { $0.append("\(triple)") } }
        }
        onThreads(2) { thread in
            for value in 1...perThread {
                if thread == 0 {
                    Node.batch {
                        x.value = value
                        y.value = value
                    }
                } else {
                    z.value = -value
                }
            }
        }
        #expect(torn.value == [])
        #expect(heard.value == 2 * perThread + 1)
    }

    /// `r.link(to: a)`, cancel, link again, while another thread sets `a` 1…10: a linked `r` rests at `a`'s value.
    @Test func aLinkMadeWhileTheSourceIsSetRestsAtItsLatestValue() {
        let stale = Locked(0)
        inRounds(rounds(10_000), threads: 2, setUp: { (MutableNode(0), MutableNode(-1)) }, { thread, nodes in
            let (a, r) = nodes
            if thread == 0 {
                for value in 1...10 { a.value = value }
            } else {
                r.link(to: a).cancel()
                _ = r.link(to: a)
            }
        }, check: { nodes in
            if nodes.1.value != nodes.0.value { stale.withLock { $0 += 1 } }
            nodes.1.removeUpstreams()
        })
        #expect(stale.value == 0)
    }

    /// `c = a.combine(b)`, one thread setting each input: at rest `c` is `(a.value, b.value)`.
    @Test func aCombineRestsAtItsInputsLatestValues() {
        let disagree = Locked<[String]>([])
        inRounds(rounds(10_000), threads: 2, setUp: { () -> (MutableNode<Int>, MutableNode<Int>, Node<(Int, Int)>) in
            let a = MutableNode(0), b = MutableNode(0)
            return (a, b, a.combine(b))
        }, { thread, nodes in
            for value in 1...5 {
                if thread == 0 { nodes.0.value = value } else { nodes.1.value = -value }
            }
        }, check: { nodes in
            let rest = nodes.2.value!
            if rest.0 != nodes.0.value || rest.1 != nodes.1.value {
                disagree.withLock { $0.append("\(rest) vs (\(nodes.0.value!), \(nodes.1.value!))") }
            }
        })
        #expect(disagree.value == [])
    }

    /// `source.map { $0 }` made while another thread sets the source once: the map rests at the new value.
    @Test func aMapMadeWhileItsSourceIsSetRestsAtTheNewValue() {
        let disagree = Locked(0)
        let made = Locked<Node<Int>?>(nil)
        inRounds(rounds(10_000), threads: 2, setUp: { MutableNode(0) }, { thread, source in
            if thread == 0 {
                source.value = 1
            } else {
                made.withLock { $0 = source.map { $0 } }
            }
        }, check: { source in
            if made.value?.value != source.value { disagree.withLock { $0 += 1 } }
            made.withLock { $0 = nil }
        })
        #expect(disagree.value == 0)
    }

    /// A hand-made ring `a → b → c → a`, each node set from its own thread: one lap per set, so each listener is
    /// called once per set (plus the value it found on attaching).
    @Test func aRingSetFromThreeThreadsCallsEachListenerOncePerSet() {
        let setsPerThread = rounds(10_200) / 3
        let bag = CancelBag()
        let nodes = [MutableNode(0), MutableNode(0), MutableNode(0)]
        let links = (0..<3).map { nodes[($0 + 1) % 3].link(to: nodes[$0]) }
        let calls = Locked([0, 0, 0])
        for index in 0..<3 {
            nodes[index].listened(by: bag).withBlock { _ in calls.withLock { $0[index] += 1 } }
        }
        onThreads(3) { thread in
            for value in 1...setsPerThread { nodes[thread].value = thread * 1_000_000 + value }
        }
        #expect(calls.value == Array(repeating: 3 * setsPerThread + 1, count: 3))
        #expect(nodes[0].value == nodes[1].value && nodes[1].value == nodes[2].value)
        links.forEach { $0.cancel() }
    }

    /// Four threads setting a diamond's source: every value the sink shows is consistent, one per set.
    @Test func fourThreadsOnADiamondSeeOnlyConsistentPairs() {
        let setsPerThread = rounds(10_000) / 4
        let bag = CancelBag()
        let source = MutableNode(0)
        let sink = Node.combine(source.map { $0 &+ 1 }, source.map { $0 &* 3 })
        let heard = Locked(0)
        let inconsistent = Locked(0)
        sink.listened(by: bag).withBlock { pair in
            heard.withLock { $0 += 1 }
            if pair.1 != (pair.0 &- 1) &* 3 { inconsistent.withLock { $0 += 1 } }
        }
        onThreads(4) { thread in
            for value in 1...setsPerThread { source.value = thread * 1_000_000 + value }
        }
        #expect(inconsistent.value == 0)
        #expect(heard.value == 4 * setsPerThread + 1)
    }

    /// Two threads batching overlapping pairs (`p, q` and `q, r`) of one `combine`: one emission per batch, each
    /// the state after some whole batch.
    @Test func overlappingBatchesOnTwoThreadsEmitOncePerBatch() {
        let batchesPerThread = rounds(10_000) / 2
        let bag = CancelBag()
        let p = MutableNode(0), q = MutableNode(0), r = MutableNode(0)
        let heard = Locked(0)
        let torn = Locked<[String]>([])
        Node.combine(p, q, r).listened(by: bag).withBlock { triple in
            heard.withLock { $0 += 1 }
            if triple.0 != triple.1 && triple.1 != triple.2 { torn.withLock { $0.append("\(triple)") } }
        }
        onThreads(2) { thread in
            for value in 1...batchesPerThread {
                if thread == 0 {
                    Node.batch {
                        p.value = value
                        q.value = value
                    }
                } else {
                    Node.batch {
                        q.value = -value
                        r.value = -value
                    }
                }
            }
        }
        #expect(torn.value == [])
        #expect(heard.value == 2 * batchesPerThread + 1)
    }

    /// Every listener hears a node's values in the order they were set, and each transaction's listener calls
    /// after the previous one's, whatever thread runs them.
    @Test func listenersHearEachNodesValuesInSetOrder() {
        let setsPerThread = rounds(10_000) / 2
        let bag = CancelBag()
        let a = MutableNode(0)
        let doubled = a.map { $0 &* 2 }
        let order = Locked<[Int]>([])
        let outOfOrder = Locked(0)
        a.listened(by: bag).withBlock { value in order.withLock { $0.append(value) } }
        doubled.listened(by: bag).withBlock { value in
            // The node's listener heard this transaction's value before the derived node's listener did.
            if order.value.last != value / 2 { outOfOrder.withLock { $0 += 1 } }
        }
        onThreads(2) { thread in
            for value in 1...setsPerThread { a.value = thread * 1_000_000 + value }
        }
        // Each thread's own sets appear in the order it made them.
        for thread in 0..<2 {
            let mine = order.value.filter { $0 / 1_000_000 == thread && $0 != 0 }
            #expect(mine == Array(1...setsPerThread).map { thread * 1_000_000 + $0 })
        }
        #expect(outOfOrder.value == 0)
    }
}

@Suite("Engine 3: sets from transforms and listeners")
struct DeferredSetTests {
    /// A `map` closure that sets a node of its own graph: the set is a later transaction, after this one commits.
    @Test func aSetFromATransformRunsAsTheNextTransaction() {
        let bag = CancelBag()
        let a = MutableNode(0), b = MutableNode(0)
        let echo = a.map { value -> Int in
            if value > 0 { b.value = value * 10 }
            return value
        }
        let heard = Recorder<String>()
        Node.combine(echo, b).listened(by: bag).withBlock { heard.record("\($0)") }
        a.value = 1
        #expect(heard.values == ["(0, 0)", "(1, 0)", "(1, 10)"])
        #expect(b.value == 10)
    }

    /// A listener that sets a node of its graph: its own transaction, heard after every call of the one before.
    @Test func aSetFromAListenerIsHeardAfterTheCallsOfItsTransaction() {
        let bag = CancelBag()
        let a = MutableNode(0)
        let heard = Recorder<String>()
        a.listened(by: bag).withBlock { value in
            heard.record("first \(value)")
            if value == 1 { a.value = 2 }
        }
        a.listened(by: bag).withBlock { heard.record("second \($0)") }
        a.value = 1
        #expect(heard.values == ["first 0", "second 0", "first 1", "second 1", "first 2", "second 2"])
    }
}

@Suite("Engine 3: no deadlock across graphs")
struct CrossDomainDeadlockTests {
    /// A `map` closure of one graph sets a node of another, and the other's sets a node of the first, from two
    /// threads: both finish, every set is applied. An exit test with a watchdog: a deadlock is a hang.
    @Test func mapClosuresSettingEachOthersGraphsDoNotDeadlock() async {
        await #expect(processExitsWith: .success) {
            startDeadlockWatchdog(seconds: 120)
            let a = MutableNode(0), b = MutableNode(0)
            // Each graph has an inbox the other graph's closure sets; an inbox feeds its graph without feeding back.
            let inboxA = MutableNode(0), inboxB = MutableNode(0)
            let graphA = Node.combine(a.map { value -> Int in
                inboxB.value = value
                return value
            }, inboxA)
            let graphB = Node.combine(b.map { value -> Int in
                inboxA.value = value
                return value
            }, inboxB)
            onThreads(2) { thread in
                for value in 1...5_000 {
                    if thread == 0 { a.value = value } else { b.value = -value }
                }
            }
            if graphA.value?.1 != -5_000 || graphB.value?.1 != 5_000 { exit(2) }
        }
    }

    /// Two graphs whose listeners set each other's nodes, set from two threads: both finish, every set is heard.
    @Test func listenersSettingEachOthersGraphsDoNotDeadlock() async {
        await #expect(processExitsWith: .success) {
            startDeadlockWatchdog(seconds: 120)
            let bag = CancelBag()
            let a = MutableNode(0), b = MutableNode(0)
            let inboxA = MutableNode(0), inboxB = MutableNode(0)
            let graphA = Node.combine(a, inboxA), graphB = Node.combine(b, inboxB)
            a.listened(by: bag).withBlock { inboxB.value = $0 }
            b.listened(by: bag).withBlock { inboxA.value = $0 }
            let heardA = Locked(0), heardB = Locked(0)
            inboxA.listened(by: bag).withBlock { _ in heardA.withLock { $0 += 1 } }
            inboxB.listened(by: bag).withBlock { _ in heardB.withLock { $0 += 1 } }
            onThreads(2) { thread in
                for value in 1...5_000 {
                    if thread == 0 { a.value = value } else { b.value = -value }
                }
            }
            if heardA.value != 5_001 || heardB.value != 5_001 { exit(2) }
            if graphA.value?.1 != -5_000 || graphB.value?.1 != 5_000 { exit(4) }
        }
    }
}


// Every edge change holds the graph's domain (see `EdgeStore.swift`); from a transform of another graph whose domain
// is busy, it waits for the end of the running transaction. Each round makes fresh graphs: once a transform reaches
// another graph's node without waiting, the two graphs are one domain from then on.
@Suite("Engine 3: edge changes from a transform of another graph")
struct CrossDomainEdgeChangeTests {
    /// The graphs of one round: `a`'s map closure reaches into `b`'s graph when `a` is set to 1.
    struct Round: Sendable {
        let a = MutableNode(0)
        let b = MutableNode(0)
        let bag = CancelBag()
        let heard = Locked<[Int]>([])
        let derived = Locked<Node<Int>?>(nil)
    }

    /// Runs `reach(round)` in `a`'s map closure on one thread while another sets `b`, over many rounds.
    private func race(_ setUp: @escaping @Sendable (Round) -> Void, reach: @escaping @Sendable (Round) -> Void,
                      check: @escaping @Sendable (Round) -> Void) {
        inRounds(rounds(10_000), threads: 2, setUp: { () -> (Round, Node<Int>) in
            let round = Round()
            setUp(round)
            let mapped = round.a.map { value -> Int in
                if value == 1 { reach(round) }
                return value
            }
            return (round, mapped)
        }, { thread, state in
            if thread == 0 { state.0.a.value = 1 } else { state.0.b.value = 1 }
        }, check: { state in
            check(state.0)
            withExtendedLifetime(state.1) {}
        })
    }

    /// A listener attached from a transform rests at the latest value, heard once per value, in order.
    @Test func aListenerAttachedFromATransformRestsAtTheLatestValue() {
        let wrong = Locked<[String]>([])
        race({ _ in }, reach: { round in
            round.b.listened(by: round.bag).withBlock { value in round.heard.withLock { $0.append(value) } }
        }, check: { round in
            let heard = round.heard.value
            if heard != [1] && heard != [0, 1] { wrong.withLock { $0.append("heard \(heard)") } }
            if !round.b.hasListener { wrong.withLock { $0.append("not attached") } }
            round.bag.cancel()
            if round.b.hasListener { wrong.withLock { $0.append("still attached after cancel") } }
        })
        #expect(wrong.value == [])
    }

    /// A listener cancelled from a transform is detached, and hears nothing of a later transaction.
    @Test func aListenerCancelledFromATransformIsDetached() {
        let wrong = Locked<[String]>([])
        let token = Locked<[ObjectIdentifier: any CancelToken]>([:])
        race({ round in
            let listener = round.b.listened(by: round.bag).withBlock { value in
                round.heard.withLock { $0.append(value) }
            }
            token.withLock { $0[ObjectIdentifier(round.b)] = listener }
        }, reach: { round in
            token.withLock { $0.removeValue(forKey: ObjectIdentifier(round.b)) }?.cancel()
            round.heard.withLock { $0.append(-1) }
        }, check: { round in
            let heard = round.heard.value
            // `[0, -1, 1]`: the other thread's call of 1 was already under way when the cancel ran (a cancel stops
            // calls not yet started; one running on another thread finishes).
            if heard != [0, -1] && heard != [0, 1, -1] && heard != [0, -1, 1] {
                wrong.withLock { $0.append("heard \(heard)") }
            }
            if round.b.hasListener { wrong.withLock { $0.append("still attached") } }
            round.b.value = 2
            if round.heard.value.contains(2) { wrong.withLock { $0.append("heard after cancel") } }
        })
        #expect(wrong.value == [])
    }

    /// Ten thousand listeners of one node each cancel themselves on their first value after the attach, while two
    /// threads set the node: each hears its attach value and exactly one more, and none is left attached.
    @Test func tenThousandListenersCancellingThemselvesWhileTwoThreadsSet() {
        let node = MutableNode(0)
        let bag = CancelBag()
        let heard = (0..<10_000).map { _ in Locked<[Int]>([]) }
        let tokens = (0..<10_000).map { _ in Locked<(any CancelToken)?>(nil) }
        for index in 0..<10_000 {
            // The attach value is delivered while `tokens[index]` is locked: only later values take that lock.
            tokens[index].withLock {
                $0 = node.listened(by: bag).withBlock { value in
                    heard[index].withLock { $0.append(value) }
                    if value != 0 { tokens[index].withLock { $0?.cancel() } }
                }
            }
        }
        onThreads(2) { thread in
            for value in 1...50 { node.value = thread * 1_000 + value }
        }
        let wrong = heard.enumerated().filter { $0.element.value.count != 2 || $0.element.value[0] != 0 }
        #expect(wrong.map { "\($0.offset): \($0.element.value)" }.prefix(5) == [])
        #expect(!node.hasListener)
        bag.cancel()
    }

    /// A node derived, in a transform, from a node of another graph whose transaction is running on another thread:
    /// the link cannot take that graph's domain, so it waits as a job of this thread, runs once both transactions
    /// are over, and the node rests at the latest value and hears later ones. Deterministic: the other thread holds
    /// its graph inside a map closure until the link has been put off.
    @Test func aNodeDerivedInATransformFromABusyGraphIsLinkedOnceThatGraphIsFree() {
        let a = MutableNode(0), b = MutableNode(0)
        let entered = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let holding = b.map { value -> Int in
            if value == 1 { entered.signal(); release.wait() }
            return value
        }
        let derived = Locked<Node<Int>?>(nil)
        let deriving = a.map { value -> Int in
            if value == 1 {
                derived.withLock { $0 = b.map { $0 &* 10 } }
                // Put off (b's domain is busy): empty until this transaction is over.
                #expect(derived.value?.value == nil)
                release.signal()
            }
            return value
        }
        let doneB = startThread { b.value = 1 }
        entered.wait()
        a.value = 1
        doneB.wait()
        #expect(derived.value?.value == 10)
        b.value = 2
        #expect(derived.value?.value == 20)
        #expect(b.downstreamTransforms.count == 2)
        withExtendedLifetime((holding, deriving)) {}
    }

    /// A node of another graph freed from a transform leaves its upstream's list, and nothing reaches it.
    @Test func aNodeFreedFromATransformIsUnlinked() {
        let wrong = Locked<[String]>([])
        race({ round in
            let derived = round.b.map { value -> Int in
                round.heard.withLock { $0.append(value) }
                return value
            }
            round.derived.withLock { $0 = derived }
        }, reach: { round in
            round.derived.withLock { $0 = nil }
        }, check: { round in
            if !round.b.downstreamTransforms.isEmpty { wrong.withLock { $0.append("still linked") } }
            round.b.value = 2
            if round.heard.value.contains(2) { wrong.withLock { $0.append("pushed into a freed node") } }
        })
        #expect(wrong.value == [])
    }

    /// A transform whose `to` is freed from a transform of another graph, then linked again (to a new node) before
    /// the freed node's unlink (deferred while the graph is busy) has run: the later link stays. (The freed node
    /// may also die only after the new `from` was set, on the thread whose propagation still held it: a freed `to`
    /// then unlinks that `from`, as it unlinks any — the transform rests at the new `to` with no `from`.)
    @Test func aTransformRelinkedRightAfterItsTargetWasFreedStaysLinked() {
        let wrong = Locked<[String]>([])
        let links = Locked<[ObjectIdentifier: (Transform<Int, Int>, MutableNode<Int>)]>([:])
        race({ round in
            let transform = Transform<Int, Int>()
            let target = MutableNode(-1)
            target.link(to: round.b, transform: transform)
            round.derived.withLock { $0 = target }
            links.withLock { $0[ObjectIdentifier(round.b)] = (transform, MutableNode(-1)) }
        }, reach: { round in
            round.derived.withLock { $0 = nil }
            // A freed `to` unlinks `from` too, so relinking sets both.
            if let (transform, fresh) = links.withLock({ $0[ObjectIdentifier(round.b)] }) {
                transform.from = round.b
                transform.to = fresh
            }
        }, check: { round in
            guard let (transform, fresh) = links.withLock({ $0.removeValue(forKey: ObjectIdentifier(round.b)) }) else {
                return
            }
            let downstream = round.b.downstreamTransforms.count
            if transform.to !== fresh {
                wrong.withLock { $0.append("to is \(String(describing: transform.to))") }
            } else if transform.from === round.b {
                round.b.value = 2
                if fresh.value != 2 || downstream != 1 {
                    wrong.withLock { $0.append("linked, but rests at \(fresh.value) with \(downstream) edges") }
                }
            } else if transform.from != nil || downstream != 0 {
                wrong.withLock { $0.append("from \(String(describing: transform.from)), \(downstream) edges") }
            }
        })
        #expect(wrong.value.prefix(5) == [])
    }
}

@Suite("Engine 3: listener calls when graphs merge")
struct MergedDrainTests {
    /// Two graphs, each with a thread inside one of its listener calls, are merged by a link; values set after the
    /// merge reach those listeners only once both earlier calls have returned: no listener is called twice at once
    /// or hears a later value first, whichever drainer finishes first (both orders, many rounds: which graph's
    /// domain becomes the root is decided by address).
    @Test func callsSetAfterAMergeWaitForTheCallsBeforeIt() {
        for round in 0..<40 {
            let a = MutableNode(0), b = MutableNode(0)
            let bag = CancelBag()
            let entered = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
            let release = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
            let heard = (Locked<[Int]>([]), Locked<[Int]>([]))
            let overlapped = Locked<[String]>([])
            /// A listener that notes a call made while another is running, and blocks inside its call of 1.
            func watch(_ node: Node<Int>, _ name: String, heard: Locked<[Int]>, entered: DispatchSemaphore,
                       release: DispatchSemaphore) {
                let inside = Locked(0)
                node.listened(by: bag).withBlock { value in
                    if inside.withLock({ $0 += 1; return $0 }) > 1 {
                        overlapped.withLock { $0.append("\(name) \(value)") }
                    }
                    heard.withLock { $0.append(value) }
                    if value == 1 { entered.signal(); release.wait() }
                    inside.withLock { $0 -= 1 }
                }
            }
            watch(a, "a", heard: heard.0, entered: entered.0, release: release.0)
            watch(b, "b", heard: heard.1, entered: entered.1, release: release.1)
            let doneA = startThread { a.value = 1 }
            let doneB = startThread { b.value = 1 }
            entered.0.wait()
            entered.1.wait()
            let merged = Node.combine(a, b)
            a.value = 2
            b.value = 2
            if round % 2 == 0 {
                release.1.signal(); doneB.wait()
                release.0.signal(); doneA.wait()
            } else {
                release.0.signal(); doneA.wait()
                release.1.signal(); doneB.wait()
            }
            #expect(overlapped.value == [], "round \(round)")
            #expect(heard.0.value == [0, 1, 2] && heard.1.value == [0, 1, 2],
                    "round \(round): a heard \(heard.0.value), b heard \(heard.1.value)")
            #expect(merged.value! == (2, 2))
            bag.cancel()
        }
    }
}
