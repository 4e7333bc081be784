import RippleCore

// Invariants: every declaration here is unavailable — it exists so that the Combine spelling a newcomer types first
// fails with a fix-it pointing at Ripple's own (`renamed:`) or a one-line explanation (`message:`), instead of "has no
// member". None can be called, so none can shadow anything at run time; they are members of `Signal` only (not of
// any protocol Combine's types conform to), so `import Combine` (or OpenCombine) beside `import Ripple` resolves as
// before. No `print(_:)` stub: a member named `print` would capture every unqualified `print` in `Signal`
// extensions. The bodies are never run.

extension Signal where Failure == Never {
    @available(*, unavailable, renamed: "subscribe(value:)",
               message: "Ripple: subscribe(value:) returns a Disposer; keep it (a property or .store(in: bag)), as an AnyCancellable")
    public func sink(receiveValue: @escaping @Sendable (Value) -> Void) -> Disposer {
        fatalError("unavailable")
    }
}

extension Signal {
    @available(*, unavailable,
               message: "Ripple: subscribe(value:error:complete:) — the error and the completion are separate callbacks; keep the returned Disposer")
    public func sink(receiveCompletion: @escaping @Sendable (Any) -> Void,
                     receiveValue: @escaping @Sendable (Value) -> Void) -> Disposer {
        fatalError("unavailable")
    }

    @available(*, unavailable, renamed: "deliver(on:)")
    public func receive(on scheduler: some Scheduling) -> Signal {
        fatalError("unavailable")
    }

    @available(*, unavailable,
               message: "Ripple: a Signal is already type-erased (Signal<Value, Failure>); drop eraseToAnyPublisher()")
    public func eraseToAnyPublisher() -> Signal {
        fatalError("unavailable")
    }

    @available(*, unavailable,
               message: "Ripple: subscribe(value: { [weak object] in object?[keyPath: path] = $0 }) and keep the Disposer")
    public func assign<Root>(to keyPath: ReferenceWritableKeyPath<Root, Value>, on object: Root) -> Disposer {
        fatalError("unavailable")
    }

    @available(*, unavailable, renamed: "handleEvents(subscribed:value:error:complete:disposed:)")
    public func handleEvents(receiveSubscription: (@Sendable (Any) -> Void)? = nil,
                             receiveOutput: (@Sendable (Value) -> Void)? = nil,
                             receiveCompletion: (@Sendable (Any) -> Void)? = nil,
                             receiveCancel: (@Sendable () -> Void)? = nil,
                             receiveRequest: (@Sendable (Any) -> Void)? = nil) -> Signal {
        fatalError("unavailable")
    }
}

extension Signal where Value: Equatable {
    @available(*, unavailable, renamed: "distinctUntilChanged()")
    public func removeDuplicates() -> Signal {
        fatalError("unavailable")
    }
}
