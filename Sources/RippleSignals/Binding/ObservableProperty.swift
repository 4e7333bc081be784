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
    // `current` and `subscribers` are guarded by `lock`. `subscribers` keeps the order of subscription, so every
    // value reaches subscribers in registration order (a dictionary's order changed from run to run); a disposal
    // removes its subscriber by key (see `KeyedList`).
    private let lock = Lock()
    private var current: Value
    private var subscribers = KeyedList<SignalSubscriber<Value, Never>>()

    public init(_ value: Value) {
        current = value
        propertyCounter.increment()
    }

    deinit {
        propertyCounter.decrement()
        for subscriber in subscribers.elements { subscriber.sendComplete() }
    }

    /// The current value; assigning sends it to every subscriber.
    public var value: Value {
        get { lock.withLock { current } }
        set {
            let targets = lock.withLock { () -> [SignalSubscriber<Value, Never>] in
                current = newValue
                return subscribers.elements
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
            let (key, value) = lock.withLock { (subscribers.append(subscriber), current) }
            subscriber.send(value)
            return Disposer { [weak self] in
                guard let self else { return }
                // Released after the lock: its last release may run user code.
                let removed = lock.withLock { subscribers.remove(key) }
                withExtendedLifetime(removed) {}
            }
        }
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
