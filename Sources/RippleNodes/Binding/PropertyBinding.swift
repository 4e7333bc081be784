import Observation
import RippleCore

/// Marks values a binding copied from a model property, so a two-way binding does not write them straight back.
public struct PropertyBindingContext: Sendable, Equatable {
    public let property: String
}

/// Re-reads one property of an `@Observable` model after every change and hands the value to a node.
///
/// Observation reports a change *before* the property is written (willSet), so the new value is read on
/// `scheduler` afterwards. The loop keeps itself alive while armed; it stops once cancelled or once its node is gone.
///
/// `@unchecked Sendable`: `cancelled` is only touched under `lock`; the other properties are immutable.
final class PropertyObservation<Model: Observable & AnyObject & Sendable, Value: Sendable>: CancelToken,
    @unchecked Sendable
{
    private let lock = Lock()
    private var cancelled = false
    private weak var model: Model?
    private weak var node: MutableNode<Value>?
    private let keyPath: KeyPath<Model, Value> & Sendable
    private let scheduler: any Scheduling
    private let skipEqual: (@Sendable (Value, Value) -> Bool)?

    init(model: Model, keyPath: KeyPath<Model, Value> & Sendable, node: MutableNode<Value>,
         scheduler: any Scheduling, skipEqual: (@Sendable (Value, Value) -> Bool)?) {
        self.model = model
        self.keyPath = keyPath
        self.node = node
        self.scheduler = scheduler
        self.skipEqual = skipEqual
    }

    /// Reads the property, tracking it for the next change, and copies it into the node.
    func start() {
        guard !isCancelled, let model, let node else { return }
        let current = withObservationTracking {
            model[keyPath: keyPath]
        } onChange: {
            self.scheduler.schedule { self.start() }
        }
        if let skipEqual, let held = node.value, skipEqual(held, current) { return }
        node.startPropagation(current, context: PropertyBindingContext(property: "\(keyPath)"))
    }

    func cancel() {
        lock.withLock { cancelled = true }
    }

    var isCancelled: Bool {
        lock.withLock { cancelled }
    }
}

extension Node where Value == Void {
    /// A node following `model[keyPath: keyPath]` (EasyReact's `EZR_PATH` binding, one-way, property → node). It
    /// starts with the current value; each later change arrives through `scheduler` (`.main`, a queue, a
    /// `TestScheduler`), since Observation reports changes before they are written.
    public static func observing<Model: Observable & AnyObject & Sendable, Property: Sendable>(
        _ model: Model, _ keyPath: KeyPath<Model, Property> & Sendable, on scheduler: some Scheduling
    ) -> Node<Property> {
        let node = MutableNode<Property>(storage: nil, mutable: false)
        node.name = "observing"
        PropertyObservation(model: model, keyPath: keyPath, node: node, scheduler: scheduler, skipEqual: nil).start()
        return node
    }
}

extension Node {
    /// Writes every value of this node into `model[keyPath: keyPath]` (one-way, node → property), starting with the
    /// current one. The listener belongs to `owner`.
    @discardableResult
    public final func bind<Model: AnyObject & Sendable>(
        to model: Model, _ keyPath: ReferenceWritableKeyPath<Model, Value> & Sendable, by owner: some ListenerOwner
    ) -> any CancelToken {
        listened(by: owner).withBlock { [weak model] value in
            model?[keyPath: keyPath] = value
        }
    }
}

extension MutableNode where Value: Equatable {
    /// Keeps this node and `model[keyPath: keyPath]` equal in both directions without ping-pong: the node takes the
    /// property's value first; a value is written to the other side only when it differs from what is there.
    /// Property changes arrive through `scheduler`. Cancel the result (or free `owner`) to stop.
    @discardableResult
    public func sync<Model: Observable & AnyObject & Sendable>(
        with model: Model, _ keyPath: ReferenceWritableKeyPath<Model, Value> & Sendable,
        on scheduler: some Scheduling, by owner: some ListenerOwner
    ) -> any CancelToken {
        let observation = PropertyObservation(model: model, keyPath: keyPath, node: self, scheduler: scheduler,
                                              skipEqual: { $0 == $1 })
        observation.start()
        let listener = listened(by: owner).withBlock { [weak model] value in
            guard let model, model[keyPath: keyPath] != value else { return }
            model[keyPath: keyPath] = value
        }
        let both = ClosureCancelToken {
            observation.cancel()
            listener.cancel()
        }
        owner.cancelBag.insert(both)
        return both
    }
}
