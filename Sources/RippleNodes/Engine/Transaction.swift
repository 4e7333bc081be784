import DequeModule
import RippleCore
import Synchronization

// A transaction: everything one set (or one `Node.batch`) changes, settled in one pass on one thread, while that
// thread holds the graph's domain (see `Domain.swift`, `DomainTransaction.swift`).
//
// Invariants:
// - Frames open and close only while the thread holds a domain. Each thread has at most one *running* frame at a
//   time, plus the frames it interrupted (linking from inside a transform pushes in a nested frame).
// - A frame has an id unique across threads and never reused, growing on each thread (`nextFrameID()`, from blocks of a
//   global counter). A node records the id of the last frame that
//   touched it, and how (see `CycleRule.swift`): nothing else is needed to know "set in this transaction".
// - Nodes with one upstream settle as soon as their upstream hands them a value (depth-first, like the engine 1
//   walk); nodes with several wait in the frame's rank queue and settle when nothing of lower rank is pending,
//   unless nothing else can change in the frame any more (`othersMayChange`). So a node settles at most once per
//   frame, after every upstream that changes in the frame: no glitch.
// - Direct settling recurses at most `directDepthLimit` hops; deeper, the node waits on the frame's deferred stack:
//   the call stack never grows with the graph.
// - Sets made while the thread holds a domain (from a transform) wait in `jobs` (FIFO) and run as the next
//   transactions once the domain is released; listeners run after the commit (`PropagationState.commit`), so every
//   listener hears value N before any hears N+1 (a listener attached in between hears the value current then, as it
//   attaches: see `ManyListenersTests`).
// - Only this thread touches its state, so the dynamic exclusivity checks are turned off.

/// Every thread's engine state. The key holds each thread's state until the thread exits.
@usableFromInline
let propagationStates = ThreadLocal<PropagationState>()

/// Hands out blocks of frame ids, unique across threads and never reused (2^62 frames before a wrap). Each thread
/// takes `frameIDBlock` ids at a time (`PropagationState.nextFrameID()`): one atomic increment per block, not per
/// frame, so threads setting independent graphs do not contend on this word (one per set made the two-graph
/// contention row 1.5× one thread's throughput, short of 1.6×). (Engine 2 made them from a per-thread tag, which
/// wrapped after 2^20 thread states.)
@usableFromInline
let frameIDs = Atomic<UInt64>(0)

/// How many frame ids a thread takes at once.
@usableFromInline
let frameIDBlock: UInt64 = 1_024

/// How many nodes settle by direct recursion before the rest wait on the deferred stack: bounds the call stack a
/// set needs (one hop is a few hundred bytes of stack) whatever the depth of the graph.
@usableFromInline
let directDepthLimit = 48

/// A node waiting to settle: in the rank queue (several upstreams) or on the deferred stack (too deep to recurse).
///
/// Its set's context is boxed, and only when there is one: an inline `(any Sendable)?` made every copy of an entry
/// (the heap moves them about) go through the existential's value witnesses.
@usableFromInline @frozen
struct PendingEntry {
    @usableFromInline var rank: Int
    @usableFromInline var order: UInt64
    /// The node, retained until it settles.
    @usableFromInline let node: Unmanaged<AnyObject>
    /// `Node<Value>.settlePending`, built where `Value` is concrete.
    @usableFromInline let settle: (Unmanaged<AnyObject>, PropagationState, (any Sendable)?) -> Void
    /// The set's context, retained, or nil when it has none. `Unmanaged`, so that copying an entry (into the array,
    /// about the heap) is a plain copy: a `PendingContext?` was copied through `Optional`'s value witnesses, found
    /// by a metadata look-up (~85 instructions a waiting node).
    @usableFromInline let context: Unmanaged<PendingContext>?

    @inlinable
    init(rank: Int, order: UInt64, node: Unmanaged<AnyObject>,
         settle: @escaping (Unmanaged<AnyObject>, PropagationState, (any Sendable)?) -> Void,
         context: Unmanaged<PendingContext>?) {
        self.rank = rank
        self.order = order
        self.node = node
        self.settle = settle
        self.context = context
    }
}

/// A set's context, kept for a node that waits to settle.
@usableFromInline
final class PendingContext: Sendable {
    @usableFromInline let value: any Sendable

    @usableFromInline
    init(_ value: any Sendable) {
        self.value = value
    }
}

/// What opening a nested frame saved of the frame it interrupted.
@usableFromInline @frozen
struct SavedFrame {
    @usableFromInline let frame: UInt64
    @usableFromInline let collecting: Bool
    @usableFromInline let queueBase: Int
    @usableFromInline let deferredBase: Int
    @usableFromInline let blockedBase: Int
    @usableFromInline let pathBase: Int

    @inlinable
    init(frame: UInt64, collecting: Bool, queueBase: Int, deferredBase: Int, blockedBase: Int, pathBase: Int) {
        self.frame = frame
        self.collecting = collecting
        self.queueBase = queueBase
        self.deferredBase = deferredBase
        self.blockedBase = blockedBase
        self.pathBase = pathBase
    }
}

/// The per-thread state of the engine.
@usableFromInline @_fixed_layout
final class PropagationState {
    /// This thread's state. Returned unretained: the thread's key holds it until the thread exits.
    @usableFromInline
    static var current: Unmanaged<PropagationState> {
        propagationStates.unretained(orMake: PropagationState.init)
    }

    /// The domain this thread holds while it runs a transaction (see `Domain.swift`), nil otherwise.
    @usableFromInline @exclusivity(unchecked) var held: Domain?
    /// How many `Node.batch` bodies this thread is in, and the sets they collected (applied when the outermost ends).
    @usableFromInline @exclusivity(unchecked) var batchDepth = 0
    @exclusivity(unchecked) var batchSets: [CollectedSet] = []
    #if RIPPLE_INTERNAL_CHECKS
    /// The nodes the running transaction settled, checked at commit (see `InvariantChecks.swift`).
    @usableFromInline @exclusivity(unchecked) var touched: [any InvariantChecked] = []
    #endif
    /// The sender list of the listener call running on this thread, for a sender-list listener.
    @exclusivity(unchecked) var deliveringSenders: SenderSnapshot?
    /// The open frame's id (a multiple of 4, see `NodeMark`), 0 when none is open.
    @usableFromInline @exclusivity(unchecked) var frame: UInt64 = 0
    /// Whether the open frame collects sets (inside `Node.batch`) rather than running.
    @usableFromInline @exclusivity(unchecked) var collecting = false
    /// The ids of the frames the open one interrupted, outermost first.
    @usableFromInline @exclusivity(unchecked) var outerFrames = PlainStack<UInt64>()
    /// How many nodes settling by direct recursion on this thread still have downstream transforms to push along
    /// after the current one. While none has, and nothing waits, nothing else can change in the running frame.
    @usableFromInline @exclusivity(unchecked) var openSiblings = 0
    @usableFromInline @exclusivity(unchecked) var queue = RankQueue()
    @usableFromInline @exclusivity(unchecked) var queueBase = 0
    @usableFromInline @exclusivity(unchecked) var deferred: [PendingEntry] = []
    @usableFromInline @exclusivity(unchecked) var deferredBase = 0
    /// `queue.count + deferred.count`, and `queueBase + deferredBase`: one comparison tells whether anything waits
    /// in the running frame (two array counts cost four loads, on every set and every wait decision).
    @usableFromInline @exclusivity(unchecked) var waiting = 0
    @usableFromInline @exclusivity(unchecked) var waitingBase = 0
    @usableFromInline @exclusivity(unchecked) var order: UInt64 = 0
    /// The node of the last entry queued, while it waits (see `QueuePin.swift`).
    @usableFromInline @exclusivity(unchecked) var pin = QueuePin()
    /// Whether the running frame interrupted another or blocks some node: only then does the cycle rule look
    /// further than a node's mark.
    @usableFromInline @exclusivity(unchecked) var guarded = false
    /// Nodes a frame must not set: the node a link pushes from, and the senders a value carried across a scheduler.
    /// Add with ``block(_:)``.
    @usableFromInline @exclusivity(unchecked) var blocked = IdentifierStack()
    @usableFromInline @exclusivity(unchecked) var blockedBase = 0
    /// The nodes settling by direct recursion, outermost first: the sender list custom transforms see. Its count is
    /// also how deep this thread recurses (pushes and pops pair up in `settleLocked`), so no separate depth counter.
    @usableFromInline @exclusivity(unchecked) var path = IdentifierStack()
    @usableFromInline @exclusivity(unchecked) var pathBase = 0
    /// Edge lists replaced while this thread was reading them (see `EdgeSnapshot.swift`), released at commit.
    @exclusivity(unchecked) var retiredEdges: [AnyObject] = []
    /// Edge lists that queued calls of several listeners, run by this thread's drain, have finished reading: counted
    /// out (`EdgeList.removeQueuedReader()`) when the drain next holds the domain (see `drainDeliveries`).
    @usableFromInline @exclusivity(unchecked) var listsRead: [EdgeList] = []
    /// The running transaction's first listener call, waiting outside the queue (see `ParkedCall.swift`): the
    /// listener, or the edge list of several (retained), how many places of the list it calls, the call, and its
    /// value's storage.
    @usableFromInline @exclusivity(unchecked) var parkedListener: Unmanaged<AnyObject>?
    @usableFromInline @exclusivity(unchecked) var parkedCount = 0
    /// Not optional: a closure stored in an `Optional` is reabstracted through a thunk, which allocates.
    @usableFromInline @exclusivity(unchecked) var parkedCall: ParkedCall = { _, _, _, _ in }
    @usableFromInline let parkedValue = UnsafeMutableRawPointer.allocate(byteCount: parkedValueSize,
                                                                         alignment: parkedValueAlignment)
    @usableFromInline @exclusivity(unchecked) var jobs = Deque<() -> Void>()
    @exclusivity(unchecked) var drainingJobs = false
    /// How many drains of listener calls this thread is inside, and the drains deferred past `maxNestedDrains` of
    /// them (see `NestedCalls.swift`).
    @usableFromInline @exclusivity(unchecked) var drainDepth = 0
    @usableFromInline @exclusivity(unchecked) var deferredDrains = Deque<() -> Void>()
    @exclusivity(unchecked) var runningDeferredDrains = false
    /// No context, for sets without one.
    @usableFromInline let noContext: (any Sendable)? = nil
    /// The last frame id handed out on this thread, and the last of its block (see `frameIDs`).
    @usableFromInline @exclusivity(unchecked) var lastFrameID: UInt64 = 0
    @usableFromInline @exclusivity(unchecked) var frameIDLimit: UInt64 = 0

    @usableFromInline
    init() {}

    deinit {
        parkedValue.deallocate()
        blocked.deallocate()
        path.deallocate()
        outerFrames.deallocate()
    }

    /// A new node's ``Node/serial``: a number from the frame ids' sequence, so no other node or frame has it.
    @inlinable @inline(__always)
    func nextSerial() -> UInt64 {
        nextFrameID()
    }

    /// A new frame id: a multiple of 4 (see `NodeMark`), never 0, above every id this thread had before.
    @inlinable @inline(__always)
    func nextFrameID() -> UInt64 {
        if lastFrameID == frameIDLimit { takeFrameIDBlock() }
        lastFrameID &+= 4
        return lastFrameID
    }

    @usableFromInline
    func takeFrameIDBlock() {
        frameIDLimit = frameIDs.wrappingAdd(4 * frameIDBlock, ordering: .relaxed).newValue
        lastFrameID = frameIDLimit - 4 * frameIDBlock
    }

    /// Whether a push into a node with several upstreams must wait: something else may still change in the running
    /// frame (a sibling edge not pushed yet, a waiting node). Otherwise no other upstream of it can change any more
    /// in this frame, and it settles at once, like a node with one upstream.
    @inlinable @inline(__always)
    var othersMayChange: Bool {
        openSiblings > 0 || waiting > waitingBase
    }

    /// Whether `frameID` is the running frame or one it interrupted.
    @inlinable @inline(__always)
    func isOpen(_ frameID: UInt64) -> Bool {
        frameID == frame || isOuter(frameID)
    }

    /// Whether `frameID` is a frame the running one interrupted.
    @inlinable @inline(__always)
    func isOuter(_ frameID: UInt64) -> Bool {
        // Frame ids grow on each thread, so an outer frame's id lies between the outermost one's and the running
        // one's: a mark left by an earlier transaction (the common case) fails the range check without the scan.
        outerFrames.count > 0 && frameID >= outerFrames.base[0] && frameID < frame
            && outerFrames.contains(frameID, from: 0)
    }

    /// Opens the outermost frame (none is open). `collecting` is false whenever no frame is open (only a nested
    /// frame of `Node.batch` sets it, and closing that frame restores it), so it is neither set here nor reset below.
    @inlinable @inline(__always)
    func beginOutermost() {
        frame = nextFrameID()
    }

    /// Settles what the outermost frame left pending, closes it and runs the queued sets.
    @inlinable @inline(__always)
    func finishOutermost() {
        if waiting > 0 { runPending() }
        frame = 0
        if guarded {
            guarded = false
            blocked.count = 0
        }
        if !jobs.isEmpty { drainJobs() }
    }

    /// Opens a frame, nested in the open one if any.
    @usableFromInline
    func openFrame(collecting: Bool) -> SavedFrame {
        let saved = SavedFrame(frame: frame, collecting: self.collecting, queueBase: queueBase,
                               deferredBase: deferredBase, blockedBase: blockedBase, pathBase: pathBase)
        if frame != 0 { outerFrames.push(frame) }
        frame = nextFrameID()
        self.collecting = collecting
        queueBase = queue.count
        deferredBase = deferred.count
        waitingBase = waiting
        blockedBase = blocked.count
        pathBase = path.count
        guarded = outerFrames.count > 0
        return saved
    }

    /// Settles what the frame left pending and returns to the frame it interrupted; when it was the outermost,
    /// runs the queued sets.
    @usableFromInline
    func closeFrame(_ saved: SavedFrame) {
        if waiting > waitingBase { runPending() }
        blocked.count = blockedBase
        path.count = pathBase
        frame = saved.frame
        collecting = saved.collecting
        queueBase = saved.queueBase
        deferredBase = saved.deferredBase
        waitingBase = queueBase + deferredBase
        blockedBase = saved.blockedBase
        pathBase = saved.pathBase
        if frame != 0 { outerFrames.count &-= 1 }
        guarded = outerFrames.count > 0 || blocked.count > blockedBase
        if frame == 0 && !jobs.isEmpty { drainJobs() }
    }

    /// Runs `body` in a frame of its own: the outermost one, or one nested in the running frame.
    @inlinable @inline(__always)
    func inFrame(_ body: () -> Void) {
        if frame == 0 {
            beginOutermost()
            body()
            finishOutermost()
        } else {
            let saved = openFrame(collecting: false)
            body()
            closeFrame(saved)
        }
    }

    /// Puts `entry` where it waits: the deferred stack when `rank` is nil, else the rank queue.
    @inlinable
    func enqueue(node: Unmanaged<AnyObject>, serial: UInt64, rank: Int?, context: (any Sendable)?,
                 settle: @escaping (Unmanaged<AnyObject>, PropagationState, (any Sendable)?) -> Void) {
        order &+= 1
        waiting &+= 1
        // Compared with nil rather than `context.map`, which copied the existential, nil or not, through `Optional`'s
        // value witnesses (~80 instructions a waiting node).
        let boxed: Unmanaged<PendingContext>? = context == nil
            ? nil : .passRetained(PendingContext(context.unsafelyUnwrapped))
        let entry = PendingEntry(rank: rank ?? 0, order: order, node: node, settle: settle, context: boxed)
        if rank == nil { deferred.append(entry) } else { queue.insert(entry, base: queueBase) }
        pin = QueuePin(node, serial: serial)
    }

    /// Settles every node waiting in the running frame: deferred ones first (they are deep in a chain whose
    /// upstream already settled), then the rank queue, lowest rank first.
    @usableFromInline
    func runPending() {
        while true {
            let entry: PendingEntry
            if deferred.count > deferredBase {
                entry = deferred.removeLast()
            } else if queue.count > queueBase {
                entry = queue.popMin(base: queueBase)
            } else {
                return
            }
            waiting &-= 1
            // Unpinned as it leaves the queue: the entry still holds it while it settles, but the pin's check asks
            // the queue.
            if pin.holds(entry.node) { pin = QueuePin() }
            if let context = entry.context?.takeRetainedValue() {
                entry.settle(entry.node, self, context.value)
            } else {
                entry.settle(entry.node, self, noContext)
            }
            entry.node.release()
        }
    }

    /// Queues `job` to run as its own transaction once the outermost frame ends.
    @usableFromInline
    func queueJob(_ job: @escaping () -> Void) {
        jobs.append(job)
    }

    @usableFromInline
    func drainJobs() {
        guard frame == 0, held == nil, !drainingJobs else { return }
        drainingJobs = true
        while let job = jobs.popFirst() { job() }
        drainingJobs = false
    }

    /// Whether `id` is on this frame's sender list or blocked in it.
    func senderListContains(_ id: ObjectIdentifier) -> Bool {
        path.contains(id, from: pathBase) || blocked.contains(id, from: blockedBase)
    }

    /// Blocks `id` in the running frame.
    @inlinable @inline(__always)
    func block(_ id: ObjectIdentifier) {
        blocked.push(id)
        guarded = true
    }

    @inlinable @inline(__always)
    func isBlocked(_ id: ObjectIdentifier) -> Bool {
        blocked.count > blockedBase && blocked.contains(id, from: blockedBase)
    }

    /// Collects a set made inside `Node.batch`, applied when the outermost batch ends.
    @usableFromInline
    func collect<Value: Sendable>(_ node: Node<Value>, _ apply: @escaping (PropagationState) -> Void) {
        batchSets.append(CollectedSet(node: node, apply: apply))
    }

    /// The sender list of the node settling now, kept for a listener called after the commit.
    @usableFromInline
    func senderSnapshot() -> SenderSnapshot {
        SenderSnapshot(ids: snapshotIDs())
    }

    /// Runs a listener call with `senders` as the sender list `withSenderListAndContextBlock` reports.
    @usableFromInline
    static func withDeliveringSenders(_ senders: SenderSnapshot, _ body: () -> Void) {
        let state = current.takeUnretainedValue()
        let saved = state.deliveringSenders
        state.deliveringSenders = senders
        body()
        state.deliveringSenders = saved
    }

    func snapshotIDs() -> [ObjectIdentifier] {
        blocked.elements(from: blockedBase) + path.elements(from: pathBase)
    }
}

@usableFromInline
typealias IdentifierStack = PlainStack<ObjectIdentifier>

/// A stack of node identities (or frame ids) in a hand-managed buffer: no uniqueness check or capacity branch into
/// generic code per push (an `[UInt64]` of outer frames cost ~50 instructions per nested frame, one per
/// `flattenMap` level of FlatMapLatestPumping).
@usableFromInline @frozen
struct PlainStack<Element: Equatable> {
    @usableFromInline var base: UnsafeMutablePointer<Element>
    @usableFromInline var count = 0
    @usableFromInline var capacity = 32

    @usableFromInline
    init() {
        base = .allocate(capacity: 32)
    }

    func deallocate() {
        base.deallocate()
    }

    @inlinable @inline(__always)
    mutating func push(_ element: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count &+= 1
    }

    @usableFromInline
    mutating func grow() {
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        grown.moveInitialize(from: base, count: count)
        base.deallocate()
        base = grown
        capacity *= 2
    }

    @inlinable
    func contains(_ element: Element, from start: Int) -> Bool {
        var index = start
        while index < count {
            if base[index] == element { return true }
            index += 1
        }
        return false
    }

    func elements(from start: Int) -> [Element] {
        start < count ? Array(UnsafeBufferPointer(start: base + start, count: count - start)) : []
    }
}

/// The nodes a value has passed on its way here in this transaction (EasyReact's `EZSenderList`).
///
/// A custom ``Transform`` receives it in ``Transform/next(_:senders:context:)`` and hands it back to
/// ``Transform/emit(_:senders:context:)``; to carry a value across a scheduler, keep ``snapshot()`` and emit with
/// ``Transform/emit(_:after:context:)``. A sender list is only valid during the call that received it, on that
/// thread: it refers to the thread's propagation state without retaining it.
@frozen
public struct SenderList {
    @usableFromInline let stateRef: Unmanaged<PropagationState>

    @inlinable
    init(state: PropagationState) {
        stateRef = .passUnretained(state)
    }

    @usableFromInline
    var state: PropagationState { stateRef.takeUnretainedValue() }

    /// Whether `node` is on the path of this propagation.
    public func contains(_ node: some GraphNode) -> Bool {
        state.senderListContains(ObjectIdentifier(node))
    }

    /// The path, kept for a later, asynchronous emission.
    public func snapshot() -> SenderSnapshot {
        SenderSnapshot(ids: state.snapshotIDs())
    }
}

/// A sender list kept across a scheduler hop (`deliver(on:)`, `delay`, `throttle`): the transaction the value
/// starts where it lands does not set these nodes again, so rings through an asynchronous edge still stop after one
/// lap.
public struct SenderSnapshot: Sendable {
    let ids: [ObjectIdentifier]
}

extension Node where Value == Void {
    /// Runs `body` as one transaction: every set inside it joins, and nodes settle once, after `body` returns. A
    /// node combining two nodes set inside emits once; a node set twice settles with its last value. Nested batches
    /// join the outermost one. The sets are applied together when the outermost batch returns, so no other thread
    /// sees part of them (and a read inside `body` shows the value from before the batch). Returns what `body`
    /// returns.
    ///
    /// ```swift
    /// let width = MutableNode(1), height = MutableNode(1)
    /// let area = Node.combine(width, height).mapEach { $0 * $1 }
    /// Node.batch {
    ///     width.value = 3
    ///     height.value = 4
    /// }                      // area settles once: 12
    /// ```
    public static func batch<Result>(_ body: () throws -> Result) rethrows -> Result {
        let state = PropagationState.current.takeUnretainedValue()
        state.batchDepth += 1
        defer {
            state.batchDepth -= 1
            // The sets are applied together, under the merged domain of every node set (see `Domain.swift`).
            if state.batchDepth == 0 { state.applyBatch() }
        }
        return try body()
    }
}
