import RippleCore

let propertyCounter = LiveObjectCounter("Signal.ObservableProperty")

// Invariants:
// - Every delivery (an assignment's value to the subscribers there when it was made, a new subscriber's current
//   value) is queued under `lock` in the order `current` changed (see `DeliveryQueue`). So an assignment made from a
//   subscriber's callback (a clamp, a two-way binding) reaches every subscriber after the value being delivered,
//   never before it: delivering the outer value after it left the other subscribers holding a value the property no
//   longer had. A subscriber's last value is the property's value once deliveries are done.
// - Callbacks never run under `lock`.

/// A value whose changes are a signal: subscribers get the current value at once, then every assignment,
/// synchronously.
///
/// This is the deterministic counterpart of ``observe(_:_:on:)`` (GYSignal's KVO binding): no scheduler and no
/// coalescing; each assignment reaches every subscriber, in the order they subscribed, before `value`'s setter
/// returns. An assignment made while another is being delivered — from a subscriber's callback, or from another
/// thread — is delivered right after it, in order, by the thread delivering (so that setter may return first): every
/// subscriber hears the values in the order the property took them, and ends holding the property's value.
///
/// ```swift
/// let purchaseNum = ObservableProperty(1)
/// purchaseNum.signal.subscribe { print("value=\($0)") }   // value=1
/// purchaseNum.value = 2                                     // value=2
/// ```
public final class ObservableProperty<Value: Sendable>: @unchecked Sendable {
    // `current` and `subscribers` are guarded by `lock`, and so is `deliveries`. `subscribers` keeps the order of
    // subscription, so every value reaches subscribers in registration order (a dictionary's order changed from run
    // to run); a disposal removes its subscriber by key (see `KeyedList`).
    private let lock = Lock()
    private var current: Value
    private var subscribers = KeyedList<SignalSubscriber<Value, Never>>()
    private let deliveries: DeliveryQueue<Value, Never>

    public init(_ value: Value) {
        current = value
        deliveries = DeliveryQueue(lock: lock)
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
            lock.lock()
            current = newValue
            if !subscribers.isEmpty { deliveries.append(.value(newValue), to: subscribers.elements) }
            lock.unlock()
            deliveries.flush()
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
            let key = lock.withLock { () -> KeyedList<SignalSubscriber<Value, Never>>.Key in
                // Queued behind the assignments already accepted, which do not go to this subscriber: it hears
                // `current` first, then only later assignments.
                deliveries.append(.value(current), to: [subscriber])
                return subscribers.append(subscriber)
            }
            deliveries.flush()
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
