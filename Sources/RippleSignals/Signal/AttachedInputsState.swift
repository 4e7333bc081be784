import RippleCore

/// The spelled-out `combineLatest` and `zip` states (two and four inputs): each attaches its inputs with raw
/// callbacks and hands itself out as their disposer, so the inputs' subscriptions are kept here, up to four.
/// `@unchecked Sendable`: `inputs` and `disposed` are guarded by the inherited `lock`.
@usableFromInline @_fixed_layout
class AttachedInputsState<Output: Sendable, Failure: Error>: CombiningState<Output, Failure>, @unchecked Sendable {
    // Guarded by `lock`, which already excludes concurrent access: no dynamic exclusivity checks needed.
    /// The inputs' subscriptions, ended by ``dispose()``; a two-input state leaves the last two nil.
    @usableFromInline @exclusivity(unchecked) var inputs: (Disposer?, Disposer?, Disposer?, Disposer?)
    @usableFromInline @exclusivity(unchecked) var disposed = false

    @inlinable
    init(downstream: SignalSubscriber<Output, Failure>) {
        inputs = (nil, nil, nil, nil)
        super.init(inputCount: 0, downstream: downstream)
    }

    /// Keeps the inputs' subscriptions and returns this state as their disposer. Under `lock`: `dispose()` may run
    /// on another thread once the action has returned this state. Consuming: the disposers move into `inputs`
    /// rather than being retained there and released by the caller (callgrind, CombineLatestCreating 50,975 →
    /// 49,694).
    @inlinable
    final func adopt(_ a: consuming Disposer?, _ b: consuming Disposer?, _ c: consuming Disposer? = nil,
                     _ d: consuming Disposer? = nil) -> Disposer {
        lock.lock()
        inputs = (a, b, c, d)
        lock.unlock()
        return self
    }

    /// Ends the inputs' subscriptions, once.
    override final func dispose() {
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

    override final var isDisposed: Bool {
        lock.lock()
        defer { lock.unlock() }
        return disposed
    }
}
