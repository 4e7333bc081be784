import RippleCore

/// One object reference behind a lock, typed `AnyObject` so reading it needs no generic metadata.
///
/// The generic types that use it (`PlumberCore<P>`) are not specialised at their callers' types outside the module,
/// and an unspecialised `Locked<State<P>>` looks up its metadata on every read; the inlinable callers cast the result
/// back with `unsafeDowncast`, which costs nothing. Ports do not read it per packet: they run the chain their route was
/// built with (``Route``), read once per change.
///
/// `@unchecked Sendable`: `object` is only touched under `lock`.
@usableFromInline
final class ObjectSlot: @unchecked Sendable {
    @usableFromInline let lock = RawLock()
    @usableFromInline @exclusivity(unchecked) var object: AnyObject?

    init(_ object: AnyObject? = nil) {
        self.object = object
    }

    @inlinable
    func load() -> AnyObject? {
        lock.lock()
        defer { lock.unlock() }
        return object
    }

    /// Stores `newValue` and returns the object it replaced. Release that outside every lock the caller holds: it
    /// may be the last reference to a chain, whose stages and handlers are user code.
    func exchange(_ newValue: AnyObject?) -> AnyObject? {
        lock.lock()
        defer { lock.unlock() }
        let old = object
        object = newValue
        return old
    }
}

/// A list of object references behind a lock, typed `AnyObject` for the same reason as ``ObjectSlot``.
///
/// `@unchecked Sendable`: `objects` is only touched under `lock`.
final class ObjectList: @unchecked Sendable {
    private let lock = RawLock()
    @exclusivity(unchecked) private var objects: [AnyObject] = []

    init() {}

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
