import RippleCore
import Synchronization

let nodeCounter = LiveObjectCounter("Node")

/// A stateful value in a graph: it holds a value (or nothing), tells its listeners, and pushes every new value along
/// its downstream transforms.
///
/// `Node` is the read-only view: it has no setter at compile time and every operator returns one. Every node is
/// physically a ``MutableNode`` (a class cluster), so ``mutablify()`` can hand back the very same object.
///
/// ```swift
/// let c = Node(33)          // read-only, holds 33
/// let empty = Node<Int>()   // read-only, empty
/// ```
///
/// `@unchecked Sendable`: every mutable stored property below is read and written only under `lock` (`edgesVersion`
/// under the graph's domain).
@_fixed_layout
public class Node<Value: Sendable>: GraphNode, CustomStringConvertible, @unchecked Sendable {
    // The fields are declared in this order so that they pack: a node is 162 bytes on Linux (a 176-byte allocation,
    // which holds up to 168; 208 before, when the flags each took a word of padding, and so did the edges' shape).
    // The counters are 32-bit: each is only ever compared for equality with a value read moments before, which 2^32
    // wraps would take to fool.
    @usableFromInline final let lock = RawLock()
    /// Whether more than one transform feeds this node: it then waits in the rank queue rather than settling as
    /// soon as one upstream pushes.
    @usableFromInline @exclusivity(unchecked) final var severalUpstreams = false
    // Guarded by `lock`, which already makes every access exclusive: the dynamic exclusivity checks are turned off.
    // `final`, so code inlined into other modules reads the fields directly rather than through accessors.
    @usableFromInline @exclusivity(unchecked) final var hasValue = false
    @usableFromInline @exclusivity(unchecked) final var mutableFlag: Bool
    /// The engine's per-thread states, kept here so a set reaches them without the global's lazy-initialisation
    /// check (a `swift_once` call per set on Linux).
    /// Unretained: the global is never freed, and a counted reference cost every node a retain and a release (two
    /// locked instructions; MapFilterCreating 30,743 → 30,158 instructions). Read it with `_withUnsafeGuaranteedRef`
    /// (an `unowned(unsafe)` field instead was retained on every read: SubjectPumping 239 → 287 instructions a set).
    @usableFromInline final let threadStatesRef = Unmanaged.passUnretained(propagationStates)
    /// The last frame that touched this node and how (see `CycleRule.swift`).
    @usableFromInline @exclusivity(unchecked) final var mark: UInt64 = 0
    /// This node's number, unique across threads and never reused (see `QueuePin.swift`); before `slot`, so that
    /// unspecialised code finds it at a fixed offset.
    @usableFromInline package final let serial: UInt64
    /// Greater than the rank of every upstream linked by a forward edge (see `Ranks.swift`).
    @usableFromInline @exclusivity(unchecked) final var rank: Int32 = 0
    /// Bumped whenever `edges` changes (under the domain and `lock`). Propagation compares it with the value it saw
    /// with its snapshot: unchanged, every listener and slot of the snapshot is still attached, with no lock to ask.
    /// Plain: every writer and every reader holds the graph's domain (see `EdgeSnapshot.swift`). Beside `rank`, in
    /// what was padding: after `observation` it took 8 bytes, and `serial` would have made a node 170 bytes.
    @usableFromInline @exclusivity(unchecked) final var edgesVersion: UInt32 = 0
    /// The value (see `StoredValue.swift`); `hasValue` tells whether it is set.
    @usableFromInline @exclusivity(unchecked) final var slot: Value?
    @usableFromInline @exclusivity(unchecked) var nameStorage: String?
    /// The Observation registrar, created on the first read of `value` (see `NodeObservation.swift`).
    @usableFromInline @exclusivity(unchecked) final var observation: NodeObservation?
    @exclusivity(unchecked) var upstream = UpstreamEdges()
    /// Listeners and downstream transforms, replaced as a whole on every change (see `NodeEdges`). Then a flag, in
    /// what would be padding after the edges' one-byte shape.
    @usableFromInline @exclusivity(unchecked) final var edges: NodeEdges = .empty
    /// The node's domain (see `Domain.swift`), or one it was merged into; nil until first needed. Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) final var domainStorage: Domain?

    // Inlinable, so creating a node runs specialised in the client: unspecialised, storing a `Value?` costs generic
    // metadata look-ups.
    @inlinable
    init(storage: Value?, mutable: Bool) {
        self.mutableFlag = mutable
        serial = threadStatesRef._withUnsafeGuaranteedRef {
            $0.unretained(orMake: PropagationState.init)._withUnsafeGuaranteedRef { $0.nextSerial() }
        }
        if var storage { _ = exchangeValue(&storage) }
        Self.didCreate()
    }

    @usableFromInline
    static func didCreate() {
        nodeCounter.increment()
    }

    deinit {
        // The transforms feeding this node are now dead ends: unlink them from their upstream nodes (whose release
        // waits for the thread's release drain, so dropping a long chain does not recurse).
        upstream.forEach { $0.targetDidDeinit() }
        destroyStoredValue()
        nodeCounter.decrement()
    }

    /// The current value, or nil when the node is empty. For `Node<Int?>`, `.some(nil)` is a held nil value.
    /// Reading it registers with Swift Observation (`withObservationTracking`, a SwiftUI `body`, `Observations`);
    /// see <doc:PropertyBinding#A-node-in-SwiftUI>.
    public var value: Value? {
        trackedRead { storage }
    }

    /// ``value`` without the dynamic dispatch (``MutableNode`` overrides it), so it runs specialised in the
    /// client: unspecialised, returning a `Value?` looks up generic metadata.
    @inlinable
    final var currentValue: Value? {
        lock.withLock { storage }
    }

    /// Whether the node holds no value (EasyReact's `EZREmpty.empty`).
    /// Does not register with Observation (read ``value`` in a SwiftUI `body`).
    public final var isEmpty: Bool {
        lock.withLock { !hasValue }
    }

    /// Whether the node accepts sets; becomes true for good after ``mutablify()``.
    public final var isMutable: Bool {
        lock.withLock { mutableFlag }
    }

    /// The current value, or `defaultValue` when empty (`valueWithDefault:`).
    public final func value(or defaultValue: Value) -> Value {
        trackedRead { storage } ?? defaultValue
    }

    /// Runs `body` with the current value, only when the node is not empty (`getValue:`).
    public final func withValue(_ body: (Value) throws -> Void) rethrows {
        if let current = trackedRead({ storage }) { try body(current) }
    }

    /// Makes this node mutable for good and returns it as a ``MutableNode``: the same object (`m === self`).
    @discardableResult
    public final func mutablify() -> MutableNode<Value> {
        lock.withLock { mutableFlag = true }
        return unsafeDowncast(self, to: MutableNode<Value>.self)
    }

    /// The debugging name used by ``description`` and by ``graph(format:)``.
    public final var name: String? {
        get { lock.withLock { nameStorage } }
        set { lock.withLock { nameStorage = newValue } }
    }

    /// Sets ``name`` and returns the node, for chaining: `input.map { … }.named("search")`.
    @discardableResult
    public final func named(_ name: String) -> Self {
        self.name = name
        return self
    }

    public var description: String {
        let (name, current) = lock.withLock { (nameStorage, storage) }
        let shown = current.map { String(describing: $0) } ?? "empty"
        return "\(isMutableForDescription ? "MutableNode" : "Node")(\(name ?? "undefined")): \(shown)"
    }

    private var isMutableForDescription: Bool { isMutable }

    /// Empties the node without telling listeners or downstream nodes (empty values never reach them); Observation
    /// hears it, since ``value`` changed.
    @usableFromInline
    final func cleanStorage() {
        lock.lock()
        let previous = removeStoredValue()
        let notifies = observation != nil && previous != nil
        lock.unlock()
        extendLifetime(previous)
        if notifies { notifyObservation() }
    }
}

/// Lets `Node(33)` and `Node<Int>()` build the physical ``MutableNode`` behind the read-only view.
///
/// Class initialisers cannot return another instance; protocol-extension initialisers can assign `self`.
public protocol NodeInitializable {
    associatedtype Value: Sendable
}

extension Node: NodeInitializable {}

extension NodeInitializable {
    /// A node holding `value`: read-only for `Node`, mutable for ``MutableNode``.
    @inlinable
    public init(_ value: Value) {
        self = Self.makeClusterNode(value)
    }

    /// An empty node: read-only for `Node`, mutable for ``MutableNode``.
    @inlinable
    public init() {
        self = Self.makeClusterNode(nil)
    }

    // Inlinable: specialised, the cast below folds away. Whether `Self` is mutable is asked by identity: `is` stayed
    // a dynamic metatype cast even specialised (~33 instructions a node: one per `flattenMap` level and value in
    // FlatMapLatestPumping).
    @inlinable
    static func makeClusterNode(_ value: Value?) -> Self {
        let mutable = ObjectIdentifier(Self.self) == ObjectIdentifier(MutableNode<Value>.self)
        let node = MutableNode<Value>(storage: value, mutable: mutable)
        guard let typed = node as? Self else { clusterInitFailed(Self.self) }
        return typed
    }
}

/// `NodeInitializable.init` on a type other than `Node` and `MutableNode`: a programmer error.
@usableFromInline
func clusterInitFailed(_ type: Any.Type) -> Never {
    programmerError("NodeInitializable.init is for Node and MutableNode only, not \(type)")
}
