#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import RippleCore

// Invariants: subscribing to an operator chain recurses once per operator (each operator subscribes its source from
// inside its own subscription), and delivering, completing, disposing and freeing recurse as deep. So each thread
// keeps a trampoline, as RxSwift's CurrentThreadScheduler does, but used only where the stack runs low: once a path
// reaches the last half of the thread's stack (`deferBelow`) while a trampoline loop runs further up the stack (the
// outermost subscription, checkpoint delivery or disposal on this thread: the "root"), the nested step is queued
// and the root runs it after its own step returns, back near the top of the stack. Queued steps run FIFO, so each
// subscriber still hears its events in order (a deferred delivery goes through the subscriber's own queue, which
// holds later events behind it); only the order between different subscribers of a chain deeper than half the
// stack can differ. Nothing is queued on shallow paths, and the root drains before it returns, so `subscribe`,
// `send` and `dispose` still finish their work before returning. Where no root runs (a path that starts deep), the
// step recurses, and stops the program at the next check with a message naming the API, the depth and the stack
// once less than `limit` is left. Not covered here: freeing a `Signal` recipe itself (nested closures the runtime
// frees recursively; see Recipe.swift and RecipeRelease.swift) and deliveries between shallow subscribers.
//
// Checks: every subscription (when its subscriber is made), every 16th fused map/filter level when subscribed, every
// finish (before running the cleanup), and the deliveries and release of "checkpoint" subscribers only: those made
// 32 or more subscriptions deep (subscription levels carry over through the trampoline, so every hop of a deep
// chain's delivery checks) and those that cut a fused chain. Shallow subscribers' deliveries pay one flag test.

/// The calling thread's stack bounds, subscription nesting level and trampoline. Per thread, so unsynchronised.
@usableFromInline
final class SubscriptionDepth {
    /// Subscribers this many levels deep (or more) check the stack when they deliver or are freed.
    static var checkpointLevel: Int { 32 }
    /// Below this address nested steps are queued when a root runs (the last half of the stack).
    @usableFromInline let deferBelow: UInt
    /// Below this address a fused map/filter chain is cut by a subscriber (the last two thirds of the stack): the
    /// values of the at most one third of the stack that such a segment took to subscribe then pass through it
    /// without a check, above `deferBelow` plus their own frames (smaller than subscribing's).
    @usableFromInline let cutFusedBelow: UInt
    /// Below this address the program stops (the last 48 KiB, or an eighth of a smaller stack); 0 when the bounds
    /// are unknown (no checks then).
    @usableFromInline let limit: UInt
    let stackSize: Int
    /// The stack's lowest address and size, to tell a frame address on this stack from one that is not (see
    /// `position(of:)`).
    @usableFromInline let low: UInt
    @usableFromInline let span: UInt
    // Only touched by its own thread: no dynamic exclusivity checks (they cost ~200 instructions per subscription).
    /// How many subscriptions are nested here; a queued subscription keeps its level when it runs.
    @usableFromInline @exclusivity(unchecked) var depth = 0
    /// Whether a root's loop is on this thread's stack, so a nested step may be queued for it.
    @usableFromInline @exclusivity(unchecked) var running = false
    @exclusivity(unchecked) private var jobs: [(depth: Int, run: () -> Void)] = []
    @exclusivity(unchecked) private var next = 0

    @usableFromInline
    init() {
        var low: UInt = 0
        var size = 0
        #if canImport(Darwin)
        let thread: pthread_t = pthread_self()
        size = pthread_get_stacksize_np(thread)
        low = UInt(bitPattern: pthread_get_stackaddr_np(thread)) - UInt(size)  // Darwin gives the top
        #else
        var attributes = pthread_attr_t()
        if let getAttributes = threadAttributesOf, getAttributes(pthread_self(), &attributes) == 0 {
            var address: UnsafeMutableRawPointer?
            pthread_attr_getstack(&attributes, &address, &size)
            low = UInt(bitPattern: address)
            pthread_attr_destroy(&attributes)
        }
        #endif
        stackSize = size
        self.low = low
        span = low == 0 ? 0 : UInt(size)
        if low == 0 {
            limit = 0
            deferBelow = 0
            cutFusedBelow = 0
        } else {
            limit = low + UInt(min(48 * 1024, size / 8))
            deferBelow = low + UInt(size / 2)
            cutFusedBelow = low + UInt(size - size / 3)
        }
    }

    /// Queues `run` for the root, at subscription level `depth`.
    func enqueue(depth: Int, _ run: @escaping () -> Void) {
        jobs.append((depth, run))
    }

    /// The root's loop: runs what was queued, and what that queues, in order.
    func runQueued() {
        if jobs.isEmpty { return }
        while next < jobs.count {
            let job = jobs[next]
            jobs[next].run = {}
            next += 1
            let saved = depth
            depth = job.depth
            job.run()
            depth = saved
        }
        jobs.removeAll(keepingCapacity: jobs.count <= 64)
        next = 0
    }

    /// Stops the program: `api` would nest with less than `limit` of the stack left and no root to queue it for.
    @usableFromInline
    func tooDeep(_ api: StaticString, fused: Bool = false) -> Never {
        let reached = fused
            ? "\(api) reached a fused chain this deep (map, filter, compactMap, scan, mapError, flatMap, "
                + "flatMapLatest, …) "
                + "within \(depth) nested subscriptions"
            : "\(api) reached \(depth) nested subscriptions (an operator chain this deep: take, then, flatMap, …)"
        programmerError(
            reached
                + " with less than \(min(48 * 1024, stackSize / 8) / 1024) KiB of this thread's \(stackSize / 1024) "
                + "KiB stack left, where nothing could queue it (it started deep in the stack, outside any "
                + "subscribe, send or dispose of a shallower chain); build a shorter chain, or use a thread with a "
                + "larger stack")
    }
}

#if !canImport(Darwin)
/// glibc's `pthread_getattr_np`, which the Glibc module does not import (it is declared only under `_GNU_SOURCE`).
private let threadAttributesOf: (@convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32)? = {
    guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "pthread_getattr_np") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32).self)
}()
#endif

@usableFromInline
let subscriptionDepths = ThreadLocal<SubscriptionDepth>()

/// The calling thread's `SubscriptionDepth`, made on first use.
@usableFromInline @inline(__always)
func currentSubscriptionDepth() -> Unmanaged<SubscriptionDepth> {
    subscriptionDepths.unretained ?? installSubscriptionDepth()
}

/// The calling thread's first subscription: makes its `SubscriptionDepth`.
@usableFromInline @inline(never)
func installSubscriptionDepth() -> Unmanaged<SubscriptionDepth> {
    subscriptionDepths.unretained(orMake: { SubscriptionDepth() })
}

/// An address in the caller's frame.
@inline(__always)
func stackAddress() -> UInt {
    var marker: UInt8 = 0
    return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
}

extension SubscriptionDepth {
    /// `address` when it lies on this thread's stack, else `UInt.max` (plenty of room: no check fires). A local's
    /// address is not always on the stack: AddressSanitizer's use-after-return detection moves frames to a heap "fake
    /// stack", where the comparisons with this stack's bounds read as "exhausted" (seen: CI's ASan pass stopped a
    /// shallow chain with "0 nested subscriptions … less than 48 KiB of 8192 KiB left").
    @inline(__always)
    func position(of address: UInt) -> UInt {
        address &- low < span ? address : .max
    }
}

/// Where a nested step goes (see `SubscriptionDepth`).
enum NestedRoute {
    /// Run it now; a root is already running (or the stack is low and none runs, but `limit` is not reached).
    case run
    /// Run it now as the root: set `running`, run it, then `runQueued()` and clear `running`.
    case root
    /// Queue it for the running root.
    case queue
}

extension SubscriptionDepth {
    /// Routes a nested step of `api` (see `NestedRoute`).
    @inline(__always)
    func route(_ api: StaticString) -> NestedRoute {
        let here = position(of: stackAddress())
        if here < deferBelow {
            if running { return .queue }
            if here < limit { tooDeep(api) }
            return .run
        }
        return running ? .run : .root
    }

    /// Disposes `cleanup` now, as the root, or queued, as `route` decides (see `SubscriptionCore.finish`).
    func dispose(_ cleanup: Disposer) {
        switch route("Disposer.dispose") {
        case .run:
            cleanup.dispose()
        case .root:
            running = true
            cleanup.dispose()
            runQueued()
            running = false
        case .queue:
            enqueueDisposal(of: cleanup)
        }
    }

    @inline(never)
    private func enqueueDisposal(of cleanup: Disposer) {
        enqueue(depth: depth) { cleanup.dispose() }
    }

    /// Runs `body` as the root: queued steps run right after it.
    @inline(__always)
    func runAsRoot(_ body: () -> Void) {
        running = true
        body()
        runQueued()
        running = false
    }
}

/// Enters one more nested subscription (see `SubscriptionDepth`): returns the thread's state and the new
/// subscriber's flags (`SubscriberFlags`). Decrementing the state's `depth` leaves it.
func enterSubscription(_ api: StaticString) -> (Unmanaged<SubscriptionDepth>, UInt8) {
    let state = currentSubscriptionDepth()
    let address = stackAddress()
    let flags = state._withUnsafeGuaranteedRef { depth -> UInt8 in
        let here = depth.position(of: address)
        var flags: UInt8 = 0
        if here < depth.deferBelow {
            if depth.running {
                flags = SubscriberFlags.deferred
            } else if here < depth.limit {
                depth.tooDeep(api)
            }
        } else if !depth.running {
            depth.running = true
            flags = SubscriberFlags.root
        }
        depth.depth &+= 1
        if depth.depth >= SubscriptionDepth.checkpointLevel { flags |= SubscriberFlags.checkpoint }
        return flags
    }
    return (state, flags)
}

/// Whether a fused map/filter operator about to subscribe must be cut by a subscriber (the stack is below
/// `cutFusedBelow` and a root runs to queue that subscriber's subscription); stops the program if the stack is
/// below `limit` and nothing can queue it.
@usableFromInline @inline(never)
func mustCutFusedChain() -> Bool {
    let address = stackAddress()
    return currentSubscriptionDepth()._withUnsafeGuaranteedRef { depth in
        let here = depth.position(of: address)
        if here < depth.cutFusedBelow {
            if depth.running { return true }
            if here < depth.limit { depth.tooDeep("Signal.subscribe", fused: true) }
        }
        return false
    }
}

/// Makes the caller a root if none runs (see `SubscriptionDepth`): for subscribing to a fused map/filter chain or a
/// `just`, which makes no subscriber of its own at the top. Pass the result to `endRoot`.
@usableFromInline @inline(never)
func beginRoot() -> Bool {
    let address = stackAddress()
    return currentSubscriptionDepth()._withUnsafeGuaranteedRef { depth in
        let here = depth.position(of: address)
        // Not deep in the stack: queued steps run where the root is, so a root there would gain little room.
        if depth.running || here < depth.deferBelow { return false }
        depth.running = true
        return true
    }
}

/// Ends what `beginRoot` began: runs what was queued.
@usableFromInline @inline(never)
func endRoot(_ began: Bool) {
    guard began else { return }
    currentSubscriptionDepth()._withUnsafeGuaranteedRef { depth in
        depth.runQueued()
        depth.running = false
    }
}

/// The flags a subscriber gets when it is made (see `enterSubscription`).
@usableFromInline
enum SubscriberFlags {
    /// It started this thread's trampoline: its `attach` runs what was queued.
    @inlinable static var root: UInt8 { 1 }
    /// Its subscription must be queued for the running root.
    @inlinable static var deferred: UInt8 { 2 }
    /// Its deliveries and release check the stack.
    @inlinable static var checkpoint: UInt8 { 4 }
}
