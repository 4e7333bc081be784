#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import RippleCore

// Invariants: subscribing to an operator chain recurses once per operator (each operator subscribes its source from
// inside its own subscription), and delivering, completing and disposing recurse as deep with frames up to about
// twice as large. So the depth is checked where subscriptions nest: when a subscriber is made (right before its
// action runs; attaching it right after leaves the level) and when a fused map/filter operator attaches upstream
// (checked, not counted). Once subscriptions reach into the last two thirds of the thread's stack, the program stops
// with a message naming the API, the depth reached and the stack size, never a bare stack overflow. The check reads
// one thread-local and compares an address.

/// The calling thread's stack bounds and how deep its subscriptions are nested. Per thread, so unsynchronised.
@usableFromInline
final class SubscriptionDepth {
    /// Subscriptions may nest through the first third of the stack only (and never leave less than 64 KiB): the
    /// delivering, completing and disposing that follow recurse through the same chain with frames up to twice as
    /// large (measured in release: a `flatMap` chain's completion took ~1.8 times its subscription's stack per
    /// level, and overflowed at 3,000 levels when subscriptions could use all but 64 KiB).
    static func reserve(ofStack size: Int) -> Int {
        max(64 * 1024, size - size / 3)
    }
    // Only touched by its own thread: no dynamic exclusivity checks (they cost ~200 instructions per subscription).
    @usableFromInline @exclusivity(unchecked) var depth = 0
    /// The lowest usable address plus `reserve`; 0 when the bounds are unknown (no check then).
    @usableFromInline let limit: UInt
    let stackSize: Int
    /// The bytes kept free for what follows a subscription (see `reserve(ofStack:)`).
    let reserved: Int

    @usableFromInline
    init() {
        var low: UInt = 0
        var size = 0
        #if canImport(Darwin)
        let thread = pthread_self()
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
        reserved = Self.reserve(ofStack: size)
        limit = low == 0 ? 0 : low + UInt(reserved)
        stackSize = size
    }

    /// Stops the program: the subscription about to nest would leave less than `reserved` bytes of stack.
    @usableFromInline
    func tooDeep(_ api: StaticString, fused: Bool = false) -> Never {
        let reached = fused
            ? "\(api) reached a fused map/filter chain this deep (map, filter, compactMap, scan, mapError, …; its "
                + "operators are not counted) within \(depth) nested subscriptions"
            : "\(api) reached \(depth) nested subscriptions (an operator chain this deep: take, then, flatMap, …)"
        programmerError(
            reached
                + " with less than \(reserved / 1024) KiB of this thread's \(stackSize / 1024) KiB stack left; "
                + "build a shorter chain, or subscribe on a thread with a larger stack")
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

/// Runs `body` one subscription deeper, after checking that the stack has room for it (see `SubscriptionDepth`).
/// Enters one more nested subscription after checking that the stack has room for it (see `SubscriptionDepth`);
/// decrementing the returned object's `depth` leaves it.
func enterSubscription(_ api: StaticString) -> Unmanaged<SubscriptionDepth> {
    let state = subscriptionDepths.unretained ?? installSubscriptionDepth()
    var marker: UInt8 = 0
    let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    state._withUnsafeGuaranteedRef { depth in
        if here < depth.limit { depth.tooDeep(api) }
        depth.depth &+= 1
    }
    return state
}

/// Checks that the stack has room for one more fused map/filter level (see `SubscriptionDepth`). Not counted in
/// the depth: the message names the fused chain instead.
@usableFromInline @inline(never)
func checkFusedStack() {
    let state = subscriptionDepths.unretained ?? installSubscriptionDepth()
    var marker: UInt8 = 0
    let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    state._withUnsafeGuaranteedRef { depth in
        if here < depth.limit { depth.tooDeep("Signal.subscribe", fused: true) }
    }
}

/// The calling thread's first subscription: makes its `SubscriptionDepth`.
@usableFromInline @inline(never)
func installSubscriptionDepth() -> Unmanaged<SubscriptionDepth> {
    subscriptionDepths.unretained(orMake: { SubscriptionDepth() })
}
