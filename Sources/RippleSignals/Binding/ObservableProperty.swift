import RippleCore

let propertyCounter = LiveObjectCounter("Signal.ObservableProperty")

/// A value whose changes are a signal: subscribers get the current value at once, then every assignment,
/// synchronously, on the assigning thread.
///
/// This is the deterministic counterpart of ``observe(_:_:on:)`` (GYSignal's KVO binding): no scheduler and no
/// coalescing; each assignment reaches every subscriber, in the order they subscribed, before `value`'s setter
/// returns. Assign from one thread at a time (as a UI model is); concurrent assignments each reach every subscriber,
/// in no agreed order.
///
/// ```swift
/// let purchaseNum = ObservableProperty(1)
/// purchaseNum.signal.subscribe { print("value=\($0)") }   // value=1
/// purchaseNum.value = 2                                     // value=2
/// ```
public final class ObservableProperty<Value: Sendable>: @unchecked Sendable {
    // `current`, `subscribers` and `nextID` are guarded by `lock`. `subscribers` is ordered by id, which is the order
    // of subscription, so every value reaches subscribers in registration order (a dictionary's order changed from
    // run to run); removal finds its entry by binary search.
    private let lock = Lock()
    private var current: Value
    private var subscribers: [(id: Int, subscriber: SignalSubscriber<Value, Never>)] = []
    private var nextID = 0

    public init(_ value: Value) {
        current = value
        propertyCounter.increment()
    }

    deinit {
        propertyCounter.decrement()
        for entry in subscribers { entry.subscriber.sendComplete() }
    }

    /// The current value; assigning sends it to every subscriber.
    public var value: Value {
        get { lock.withLock { current } }
        set {
            let targets = lock.withLock { () -> [SignalSubscriber<Value, Never>] in
                current = newValue
                return subscribers.map(\.subscriber)
            }
            for target in targets { target.send(newValue) }
        }
    }

    /// The current value, then each new one. Completes when the property is freed.
    ///
    /// The property holds its subscribers (it is their producer); disposing a subscription removes it.
    public var signal: Signal<Value, Never> {
        Signal { [weak self] subscriber in
            guard let self else {
                subscriber.sendComplete()
                return .empty
            }
            let (id, value) = lock.withLock { () -> (Int, Value) in
                defer { nextID += 1 }
                subscribers.append((nextID, subscriber))
                return (nextID, current)
            }
            subscriber.send(value)
            return Disposer { [weak self] in
                guard let self else { return }
                lock.withLock { self.remove(id) }
            }
        }
    }
}

extension ObservableProperty {
    /// Removes subscription `id`, if it is still there. Call under `lock`.
    private func remove(_ id: Int) {
        var low = 0, high = subscribers.count
        while low < high {
            let middle = (low + high) / 2
            if subscribers[middle].id < id { low = middle + 1 } else { high = middle }
        }
        if low < subscribers.count && subscribers[low].id == id { subscribers.remove(at: low) }
    }
}

/// A stored property whose projected value (`$name`) is its ``ObservableProperty/signal``.
///
/// ```swift
/// final class Order {
///     @SignalProperty var purchaseNum = 1
/// }
/// order.$purchaseNum.subscribe { print("value=\($0)") }
/// ```
@propertyWrapper
public struct SignalProperty<Value: Sendable>: Sendable {
    /// The property behind the wrapper.
    public let property: ObservableProperty<Value>

    public init(wrappedValue: Value) {
        property = ObservableProperty(wrappedValue)
    }

    public var wrappedValue: Value {
        get { property.value }
        nonmutating set { property.value = newValue }
    }

    public var projectedValue: Signal<Value, Never> {
        property.signal
    }
}
