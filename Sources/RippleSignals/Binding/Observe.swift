import Observation
import RippleCore

/// GYSignal's `GYObserve(order, purchaseNum)` for `@Observable` objects: the property's current value, then its new
/// value after each change.
///
/// Observation tells about a change *before* it happens (`willSet`) and once per registration, so each
/// notification schedules, on `scheduler`, a read of the new value and a fresh registration. Changes made in one
/// synchronous burst before that read runs arrive as one value — the latest — the way SwiftUI sees them; values never
/// arrive out of order. Reads happen on `scheduler`, so pass the scheduler the object lives on (`.main` for a
/// `@MainActor` model). `.immediate` stops with a message naming this function: it would read inside `willSet` and
/// keep the old value. For a synchronous stream of every assignment, use ``ObservableProperty``.
///
/// ```swift
/// observe(order, \.purchaseNum, on: .main).subscribe { print("value=\($0)") }
/// ```
public func observe<Object: AnyObject & Observable & SendableMetatype, Value: Sendable>(
    _ object: Object,
    _ keyPath: KeyPath<Object, Value>,
    on scheduler: some Scheduling
) -> Signal<Value, Never> {
    if scheduler is SynchronousScheduler {
        programmerError("observe(_:_:on:) cannot use .immediate: Observation reports a change before the property is "
            + "written, so an immediate read would keep the old value; pass the scheduler the object lives on "
            + "(.main for a @MainActor model, or a TestScheduler)")
    }
    let source = ObservedSource(object: object, keyPath: keyPath)
    return Signal { subscriber in
        let observation = Observing(source: source, subscriber: subscriber, scheduler: scheduler)
        observation.readAndTrack()
        return Disposer { [weak observation] in observation?.stop() }
    }
}

/// The object and key path to read. `@unchecked Sendable`: the object is held weakly and only read on the scheduler
/// the caller chose; a key path without subscripts is an immutable value.
final class ObservedSource<Object: AnyObject & Observable & SendableMetatype, Value: Sendable>: @unchecked Sendable {
    weak let object: Object?
    let keyPath: KeyPath<Object, Value>

    init(object: Object, keyPath: KeyPath<Object, Value>) {
        self.object = object
        self.keyPath = keyPath
    }
}

/// One subscription's observation loop. `@unchecked Sendable`: `subscriber` is guarded by `lock`.
///
/// Ownership follows the producer: the object's registrar holds the change handler, which holds this loop, which
/// holds the subscriber. When the object is freed the subscription ends; `stop()` lets go of the subscriber at once.
final class Observing<Object: AnyObject & Observable & SendableMetatype, Value: Sendable, S: Scheduling>:
    @unchecked Sendable
{
    private let source: ObservedSource<Object, Value>
    private let scheduler: S
    private let lock = Lock()
    private var subscriber: SignalSubscriber<Value, Never>?

    init(source: ObservedSource<Object, Value>, subscriber: SignalSubscriber<Value, Never>, scheduler: S) {
        self.source = source
        self.subscriber = subscriber
        self.scheduler = scheduler
    }

    /// Reads the current value while registering for the next change, then sends it.
    func readAndTrack() {
        guard let target = lock.withLock({ subscriber }) else { return }
        guard let object = source.object else {
            target.sendComplete()
            return
        }
        let keyPath = source.keyPath
        let value = withObservationTracking {
            object[keyPath: keyPath]
        } onChange: { [self] in
            // Called in willSet: the new value is readable only once the setter has returned.
            scheduler.schedule { [self] in readAndTrack() }
        }
        target.send(value)
    }

    func stop() {
        lock.withLock { subscriber = nil }
    }
}
