// Invariants: the inputs of a zip or combineLatest whose inputs are counted at run time (parameter packs, arrays)
// are attached in order, input `i` with index `i`, none once the downstream is disposed; each with raw callbacks
// (the input keeps the grammar itself and the state's lock orders what the inputs send, so a `just` or map/filter
// input needs no subscriber of its own), its error going straight to the downstream, which that callback owns (see
// `CombiningState`). One disposer ends them all.

/// Collects the inputs' subscriptions while they are attached.
struct InputList<Failure: Error> {
    private var disposers: [Disposer] = []

    /// Attaches the next input; `value(i)` and `complete(i)` make its callbacks for index `i`.
    mutating func attach<Input: Sendable, Output: Sendable>(
        _ input: Signal<Input, Failure>, to downstream: SignalSubscriber<Output, Failure>,
        value: (Int) -> @Sendable (Input) -> Void, complete: (Int) -> @Sendable () -> Void
    ) {
        let index = disposers.count
        if downstream.isDisposed { return }
        disposers.append(input.attach(value: value(index), error: { downstream.sendError($0) },
                                      complete: complete(index)))
    }

    /// Disposes every attached input.
    var disposer: Disposer {
        let all = disposers
        return Disposer {
            for disposer in all { disposer.dispose() }
        }
    }
}
