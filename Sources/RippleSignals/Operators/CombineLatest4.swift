import RippleCore

extension Signal {
    /// `combineLatest(_:)` of this signal and three others (see the parameter-pack form, whose behaviour this
    /// repeats exactly).
    ///
    /// Spelled out because the pack form runs unspecialised: every subscription and value there looks generic
    /// metadata up. This one is inlinable, so its state and callbacks are specialised in the caller's module.
    @inlinable
    public func combineLatest<B: Sendable, C: Sendable, D: Sendable>(
        _ b: Signal<B, Failure>, _ c: Signal<C, Failure>, _ d: Signal<D, Failure>
    ) -> Signal<(Value, B, C, D), Failure> {
        let a = self
        return Signal<(Value, B, C, D), Failure> { downstream in
            CombineLatest4(downstream: downstream).start(a, b, c, d)
        }
    }
}

/// Per-subscription state of the four-input `combineLatest`: the latest value of each input in a typed slot.
/// `@unchecked Sendable`: the slots and bit sets are guarded by the inherited `lock`.
@usableFromInline
final class CombineLatest4<A: Sendable, B: Sendable, C: Sendable, D: Sendable, Failure: Error>:
    CombiningState<(A, B, C, D), Failure>, @unchecked Sendable
{
    @usableFromInline static var allInputs: Int { 0b1111 }

    // Guarded by `lock`, which already excludes concurrent access: no dynamic exclusivity checks needed.
    @usableFromInline @exclusivity(unchecked) var a: A?
    @usableFromInline @exclusivity(unchecked) var b: B?
    @usableFromInline @exclusivity(unchecked) var c: C?
    @usableFromInline @exclusivity(unchecked) var d: D?
    /// Bit `i` is set once input `i` has sent a value.
    @usableFromInline @exclusivity(unchecked) var present = 0
    /// Bit `i` is set once input `i` has completed.
    @usableFromInline @exclusivity(unchecked) var completedInputs = 0
    /// The inputs' subscriptions, ended by ``dispose()``.
    @usableFromInline @exclusivity(unchecked) var inputs: (Disposer?, Disposer?, Disposer?, Disposer?)
    @usableFromInline @exclusivity(unchecked) var disposed = false

    @inlinable
    init(downstream: Subscriber<(A, B, C, D), Failure>) {
        // No per-input `completed` array: the bit sets above replace it.
        super.init(inputCount: 0, downstream: downstream)
    }

    /// Subscribes the inputs in order (none once the downstream is disposed) and returns this state as their
    /// disposer (no array or closure to hold them). Each callback captures only this state, so none allocates a
    /// context; the inputs are attached with raw callbacks (they keep the grammar themselves, and the state's lock
    /// orders what they send), so a `just` input is delivered without a subscriber. The state is only disposed
    /// after the action returns it (the downstream attaches its cleanup then), so `inputs` is set by then.
    @inlinable
    func start(_ sa: Signal<A, Failure>, _ sb: Signal<B, Failure>, _ sc: Signal<C, Failure>,
               _ sd: Signal<D, Failure>) -> Disposer {
        let da = sa.attach(
            value: { self.receive(a: $0) }, error: { self.fail($0) }, complete: { self.complete(input: 0) })
        let db = downstream.isDisposed ? nil : sb.attach(
            value: { self.receive(b: $0) }, error: { self.fail($0) }, complete: { self.complete(input: 1) })
        let dc = downstream.isDisposed ? nil : sc.attach(
            value: { self.receive(c: $0) }, error: { self.fail($0) }, complete: { self.complete(input: 2) })
        let dd = downstream.isDisposed ? nil : sd.attach(
            value: { self.receive(d: $0) }, error: { self.fail($0) }, complete: { self.complete(input: 3) })
        // Under `lock`: `dispose()` may run on another thread once the action has returned this state.
        lock.lock()
        inputs = (da, db, dc, dd)
        lock.unlock()
        return self
    }

    /// Ends the inputs' subscriptions, once.
    override func dispose() {
        lock.lock()
        disposed = true
        let taken = inputs
        inputs = (nil, nil, nil, nil)
        lock.unlock()
        taken.0?.dispose()
        taken.1?.dispose()
        taken.2?.dispose()
        taken.3?.dispose()
    }

    override var isDisposed: Bool {
        lock.lock()
        defer { lock.unlock() }
        return disposed
    }

    @inlinable
    func receive(a value: A) {
        lock.lock()
        guard !ended else { return lock.unlock() }
        a = value
        received(0)
    }

    @inlinable
    func receive(b value: B) {
        lock.lock()
        guard !ended else { return lock.unlock() }
        b = value
        received(1)
    }

    @inlinable
    func receive(c value: C) {
        lock.lock()
        guard !ended else { return lock.unlock() }
        c = value
        received(2)
    }

    @inlinable
    func receive(d value: D) {
        lock.lock()
        guard !ended else { return lock.unlock() }
        d = value
        received(3)
    }

    /// Called with `lock` held after input `input` stored a value; releases it, emitting once every input has one.
    @inlinable
    func received(_ input: Int) {
        present |= 1 << input
        guard present == Self.allInputs, let a, let b, let c, let d else { return lock.unlock() }
        emit((a, b, c, d))
    }

    /// Input `input` completed: the result completes if it never sent a value (no tuple can form) or if every input
    /// has completed.
    @inlinable
    func complete(input: Int) {
        lock.lock()
        guard !ended else { return lock.unlock() }
        completedInputs |= 1 << input
        if present & (1 << input) == 0 || completedInputs == Self.allInputs {
            enqueueCompletion()
        }
        lock.unlock()
        flush()
    }
}
