import RippleCore

/// One object reference behind a lock, typed `AnyObject` so reading it needs no generic metadata.
///
/// The generic types that use it (`PlumberCore<P>`, `Port<P>`) are not specialised at their callers' types outside
/// the module, and an unspecialised `Locked<State<P>>` looked up its metadata on every packet; the inlinable callers
/// cast the result back with `unsafeDowncast`, which costs nothing. The lock is stored inline and the read is
/// inlinable: it is on every packet's path.
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

    func store(_ newValue: AnyObject?) {
        lock.lock()
        let old = object
        object = newValue
        lock.unlock()
        // The old object may be the last reference to a chain (whose stages and handlers are user code): release it
        // outside the lock. `_ = old` would not pin it; Swift may end a reference's lifetime at its last real use.
        withExtendedLifetime(old) {}
    }
}

/// A list of object references behind a lock, typed `AnyObject` for the same reason as ``ObjectSlot``.
///
/// `@unchecked Sendable`: `objects` is only touched under `lock`.
@usableFromInline
final class ObjectList: @unchecked Sendable {
    @usableFromInline let lock = RawLock()
    @usableFromInline @exclusivity(unchecked) var objects: [AnyObject] = []
    /// `objects[0]` when it is the only one, unretained (`objects` holds it): the hot path reads it without
    /// retaining the list.
    @usableFromInline @exclusivity(unchecked) var sole: Unmanaged<AnyObject>?

    init() {}

    @inlinable
    func load() -> [AnyObject] {
        lock.lock()
        defer { lock.unlock() }
        return objects
    }

    /// Runs `body` under the lock with the list's only object (unretained: the list holds it), or with nil when
    /// the list holds zero or several; returns nil in those cases. `body` must not call out or take a lock that
    /// could be held while this one is wanted.
    @inlinable
    func withSoleObject<Result>(_ body: (Unmanaged<AnyObject>) -> Result) -> Result? {
        lock.lock()
        defer { lock.unlock() }
        guard let sole else { return nil }
        return body(sole)
    }

    func update(_ change: (inout [AnyObject]) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        change(&objects)
        sole = objects.count == 1 ? Unmanaged.passUnretained(objects[0]) : nil
    }
}
