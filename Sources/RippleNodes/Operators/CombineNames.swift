import RippleCore

// Invariants: every declaration here is unavailable — the Combine spelling a newcomer types first fails with a
// fix-it or a one-line pointer to Ripple's own, instead of "has no member". Members of `Node` only, never run, so
// `import Combine` (or OpenCombine) beside `import Ripple` resolves as before.

extension Node {
    @available(*, unavailable,
               message: "Ripple: node.listened(by: owner).withBlock { … } — the owner (a CancelBag, or self as a ListenerOwner) keeps the listener")
    public final func sink(receiveValue: @escaping @Sendable (Value) -> Void) -> any CancelToken {
        fatalError("unavailable")
    }

    @available(*, unavailable, renamed: "deliver(on:)")
    public final func receive(on scheduler: some Scheduling) -> Node<Value> {
        fatalError("unavailable")
    }

    @available(*, unavailable, message: "Ripple: a Node is already type-erased (Node<Value>); drop eraseToAnyPublisher()")
    public final func eraseToAnyPublisher() -> Node<Value> {
        fatalError("unavailable")
    }

    @available(*, unavailable,
               message: "Ripple: node.bind(to: object, \\.property, by: owner) keeps a property in step with the node")
    public final func assign<Root>(to keyPath: ReferenceWritableKeyPath<Root, Value>, on object: Root) -> any CancelToken {
        fatalError("unavailable")
    }

    @available(*, unavailable, renamed: "handleEvents(value:)")
    public final func handleEvents(receiveOutput: @escaping @Sendable (Value) -> Void) -> Node<Value> {
        fatalError("unavailable")
    }
}

extension Node where Value: Equatable {
    @available(*, unavailable, renamed: "distinctUntilChanged()")
    public final func removeDuplicates() -> Node<Value> {
        fatalError("unavailable")
    }
}
