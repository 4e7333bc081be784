import Observation
import RippleCore

// Bindings between nodes and properties of `@Observable` models, `@MainActor` ones (the usual SwiftUI model)
// included.
//
// Invariants:
// - Observation reports a change *before* the property is written (willSet), so a property → node binding reads the
//   new value later, on its scheduler; it never settles on the value from before the write. `.immediate` would read
//   inside willSet, so it is refused with a message naming the API.
// - The model is only touched where the caller says it lives: on the calling thread when binding, on the scheduler
//   for property → node reads, and on the scheduler (`bind(to:_:on:by:)`) or the node's setter thread
//   (`bind(to:_:by:)`, `sync`) for node → property writes. The compiler cannot check a generic model's isolation, so
//   the model and key path travel in `ModelAccess`, whose `@unchecked Sendable` stands for that rule.

/// Marks values a binding copied from a model property, so a two-way binding does not write them straight back.
public struct PropertyBindingContext: Sendable, Equatable {
    public let property: String
}

/// A model held weakly and a key path into it. `@unchecked Sendable`: only used where the model lives (see above);
/// the key path is an immutable value.
final class ModelAccess<Model: AnyObject & SendableMetatype, Path: AnyKeyPath>: @unchecked Sendable {
    weak let model: Model?
    let keyPath: Path

    init(_ model: Model, _ keyPath: Path) {
        self.model = model
        self.keyPath = keyPath
    }
}

/// Re-reads one property of an `@Observable` model after every change and hands the value to a node.
///
/// The loop keeps itself alive while armed (the model's registrar holds the change handler); it stops once cancelled
/// or once its node or model is gone.
///
/// `@unchecked Sendable`: `cancelled` is only touched under `lock`; the other properties are immutable.
final class PropertyObservation<Model: Observable & AnyObject & SendableMetatype, Value: Sendable>: CancelToken,
    @unchecked Sendable
{
    private let lock = Lock()
    private var cancelled = false
    private let access: ModelAccess<Model, KeyPath<Model, Value>>
    private weak var node: MutableNode<Value>?
    private let scheduler: any Scheduling
    private let skipEqual: (@Sendable (Value, Value) -> Bool)?

    init(model: Model, keyPath: KeyPath<Model, Value>, node: MutableNode<Value>,
         scheduler: any Scheduling, skipEqual: (@Sendable (Value, Value) -> Bool)?, api: String) {
        if scheduler is SynchronousScheduler {
            programmerError("\(api) cannot use .immediate: Observation reports a change before the property is "
                + "written, so an immediate read would keep the old value; pass the scheduler the model lives on "
                + "(.main for a @MainActor model, or a TestScheduler)")
        }
        access = ModelAccess(model, keyPath)
        self.node = node
        self.scheduler = scheduler
        self.skipEqual = skipEqual
    }

    /// Reads the property, tracking it for the next change, and copies it into the node.
    func start() {
        guard !isCancelled, let model = access.model, let node else { return }
        let keyPath = access.keyPath
        let current = withObservationTracking {
            model[keyPath: keyPath]
        } onChange: {
            // Called in willSet: the new value is readable only once the setter has returned.
            self.scheduler.schedule { self.start() }
        }
        if let skipEqual, let held = node.currentValue, skipEqual(held, current) { return }
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
    /// starts with the current value; each later change is read on `scheduler` (`.main` for a `@MainActor` model, a
    /// queue, a `TestScheduler`) once the write is done, so changes in one synchronous burst arrive as the latest.
    /// `.immediate` stops with a message: Observation reports a change before the write.
    public static func observing<Model: Observable & AnyObject & SendableMetatype, Property: Sendable>(
        _ model: Model, _ keyPath: KeyPath<Model, Property>, on scheduler: some Scheduling
    ) -> Node<Property> {
        let node = MutableNode<Property>(storage: nil, mutable: false)
        node.name = "observing"
        PropertyObservation(model: model, keyPath: keyPath, node: node, scheduler: scheduler, skipEqual: nil,
                            api: "Node.observing(_:_:on:)").start()
        return node
    }
}

extension Node {
    /// Writes every value of this node into `model[keyPath: keyPath]` (one-way, node → property), starting with the
    /// current one, on the thread that sets the node. The listener belongs to `owner`. For a model that lives on one
    /// actor or queue (a `@MainActor` model), use ``bind(to:_:on:by:)``.
    @discardableResult
    public final func bind<Model: AnyObject & Sendable>(
        to model: Model, _ keyPath: ReferenceWritableKeyPath<Model, Value> & Sendable, by owner: some ListenerOwner
    ) -> any CancelToken {
        listened(by: owner).withBlock { [weak model] value in
            model?[keyPath: keyPath] = value
        }
    }

    /// Writes every value of this node into `model[keyPath: keyPath]` on `scheduler` (`.main` for a `@MainActor`
    /// model), starting with the current one, in setting order. The listener belongs to `owner`.
    @discardableResult
    public final func bind<Model: AnyObject & SendableMetatype>(
        to model: Model, _ keyPath: ReferenceWritableKeyPath<Model, Value>, on scheduler: some Scheduling,
        by owner: some ListenerOwner
    ) -> any CancelToken {
        let access = ModelAccess(model, keyPath)
        return listened(by: owner).withBlock(on: scheduler) { value in
            access.model?[keyPath: access.keyPath] = value
        }
    }
}

extension MutableNode where Value: Equatable {
    /// Keeps this node and `model[keyPath: keyPath]` equal in both directions without ping-pong: the node takes the
    /// property's value first; a value is written to the other side only when it differs from what is there.
    /// Property changes are read on `scheduler` (`.main` for a `@MainActor` model; `.immediate` stops with a
    /// message); node values are written on the thread that sets the node, so set it where the model lives.
    /// Cancel the result (or free `owner`) to stop.
    @discardableResult
    public func sync<Model: Observable & AnyObject & SendableMetatype>(
        with model: Model, _ keyPath: ReferenceWritableKeyPath<Model, Value>,
        on scheduler: some Scheduling, by owner: some ListenerOwner
    ) -> any CancelToken {
        let observation = PropertyObservation(model: model, keyPath: keyPath, node: self, scheduler: scheduler,
                                              skipEqual: { $0 == $1 }, api: "MutableNode.sync(with:_:on:by:)")
        observation.start()
        let access = ModelAccess(model, keyPath)
        let listener = listened(by: owner).withBlock { value in
            guard let model = access.model, model[keyPath: access.keyPath] != value else { return }
            model[keyPath: access.keyPath] = value
        }
        let both = ClosureCancelToken {
            observation.cancel()
            listener.cancel()
        }
        owner.cancelBag.insert(both)
        return both
    }
}
