import Synchronization

// Invariant: `storage` is nil or holds one object, retained once when stored (from nil, by one compare-exchange) and
// never released, so the object outlives every read and an unretained read is always of a live object; once set,
// `storage` never changes (checked under `RIPPLE_INTERNAL_CHECKS`: every read compares it with the object the
// winning installer recorded, and a losing installer must find it set). Only for objects meant to live as long as the program, in a global `let`.

/// A program-lifetime object made on first use, in a global that needs no initialisation of its own.
///
/// A global `let` holding an object is initialised lazily, and on Linux every read of it goes through `swift_once`
/// (~10 instructions a read with its addressor); this struct is laid out statically (one atomic word, nil), so a
/// read is a load and a test. Used for `Disposer.empty`: callgrind, SubjectCreating 2,844 → 2,826 instructions,
/// with `attach` testing a stored flag instead of the type (see BENCHMARKS.md, "SubjectCreating without
/// swift_once"). Not worth it for the trampolines' `ThreadLocal` (2,826 → 2,830: the once-check is as cheap as the
/// load and test that replace it there). Not `AtomicLazyReference`: its `load()` is not inlined on this toolchain,
/// +590 instructions per subscription.
@usableFromInline @frozen
struct ImmortalReference<Object: AnyObject & Sendable>: ~Copyable, Sendable {
    @usableFromInline let storage: Atomic<Unmanaged<Object>?>
    #if RIPPLE_INTERNAL_CHECKS
    /// The address the winning installer stored, 0 until then.
    @usableFromInline let installed: Atomic<UInt>
    #endif

    @inlinable
    init() {
        storage = Atomic(nil)
        #if RIPPLE_INTERNAL_CHECKS
        installed = Atomic(0)
        #endif
    }

    /// The object, unretained, made with `make` by the first thread that asks (racing threads all get the one
    /// stored first; the others' candidates are freed).
    @inlinable @inline(__always)
    func unretained(orMake make: () -> Object) -> Unmanaged<Object> {
        // One unretained value on both paths: a caller that takes it takes one retain (two paths cost two). `make`
        // is called out of line, so that this stays small enough to inline where it is read.
        let object = storage.load(ordering: .acquiring) ?? install(make)
        #if RIPPLE_INTERNAL_CHECKS
        checkUnchanged(object)
        #endif
        return object
    }

    #if RIPPLE_INTERNAL_CHECKS
    /// The invariant: the object read is the one installed first (0: its installer has not recorded it yet).
    @usableFromInline
    func checkUnchanged(_ object: Unmanaged<Object>) {
        let first = installed.load(ordering: .acquiring)
        let read = UInt(bitPattern: object.toOpaque())
        precondition(first == 0 || first == read, "Ripple internal check: an ImmortalReference changed its object")
    }
    #endif

    @usableFromInline @inline(never)
    func install(_ make: () -> Object) -> Unmanaged<Object> {
        let candidate = Unmanaged.passRetained(make())
        let (exchanged, stored) = storage.compareExchange(
            expected: nil, desired: candidate, ordering: .acquiringAndReleasing)
        if exchanged {
            #if RIPPLE_INTERNAL_CHECKS
            installed.store(UInt(bitPattern: candidate.toOpaque()), ordering: .releasing)
            #endif
            return candidate
        }
        candidate.release()
        #if RIPPLE_INTERNAL_CHECKS
        precondition(stored != nil, "Ripple internal check: an ImmortalReference lost its install to nil")
        #endif
        return stored!
    }
}
