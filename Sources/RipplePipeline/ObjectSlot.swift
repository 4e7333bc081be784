import RippleCore

/// One object reference behind a lock, typed `AnyObject` so reading it needs no generic metadata.
///
/// The generic types that use it (`PlumberCore<P>`, `Port<P>`) are not specialised at their callers' types outside
/// the module, and an unspecialised `Locked<State<P>>` looked up its metadata on every packet; the inlinable callers
/// cast the result back with `unsafeDowncast`, which costs nothing.
///
/// `@unchecked Sendable`: `object` is only touched under `lock`.
@usableFromInline
final class ObjectSlot: @unchecked Sendable {
    private let lock = Lock()
    @exclusivity(unchecked) private var object: AnyObject?

    init(_ object: AnyObject? = nil) {
        self.object = object
    }

    @usableFromInline
    func load() -> AnyObject? {
        lock.lock()
        defer { lock.unlock() }
        return object
    }

    func store(_ newValue: AnyObject?) {
        lock.lock()
        let old = object
        object = newValue
        lock.unlock()
        // The old object may be the last reference to a chain: release it outside the lock.
        _ = old
    }
}

/// A list of object references behind a lock, typed `AnyObject` for the same reason as ``ObjectSlot``.
///
/// `@unchecked Sendable`: `objects` is only touched under `lock`.
@usableFromInline
final class ObjectList: @unchecked Sendable {
    private let lock = Lock()
    @exclusivity(unchecked) private var objects: [AnyObject] = []

    init() {}

    @usableFromInline
    func load() -> [AnyObject] {
        lock.lock()
        defer { lock.unlock() }
        return objects
    }

    func update(_ change: (inout [AnyObject]) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        change(&objects)
    }
}
