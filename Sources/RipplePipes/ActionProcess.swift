import RippleCore

/// The context of one call along a chain: what upstream actions returned and handed down, and the arguments as they
/// stand now.
///
/// An action receives it as its closure's first parameter, and any code running inside an action (a helper it calls,
/// a nested call, code after an `await` in an async action) reads it as ``ActionProcess/current``. Outside a call
/// ``ActionProcess/current`` is `nil`; a nested call sees its own process and the outer one is back when it returns.
///
/// `@unchecked Sendable`: the mutable state (tuple, arguments, last return) is only touched under `lock`.
public class ActionProcess: @unchecked Sendable {
    /// The process of the call the current code runs inside, or `nil` outside every call.
    public static var current: ActionProcess? {
        taskCurrent
    }

    /// Set only by a call, for exactly its duration, so no process outlives its call here.
    @TaskLocal static var taskCurrent: ActionProcess?

    let lock = Lock()
    /// Guarded by `lock`.
    var storedTuple = PipeTuple()

    /// The state the call was made with (``ActionPipe/doWithState(_:)``), or `nil` for a call without state.
    public let state: ActionState?
    /// The name of the action being called.
    public let actionName: String
    /// The pipe the call went through; calling it again runs the chain from its head.
    let entry: AnyObject

    init(state: ActionState?, actionName: String, entry: AnyObject) {
        self.state = state
        self.actionName = actionName
        self.entry = entry
    }

    /// Extra values for the actions downstream in this call (the seed's `tmpTuple`).
    public var tuple: PipeTuple {
        get { lock.withLock { storedTuple } }
        set { lock.withLock { storedTuple = newValue } }
    }

    /// Changes the tuple in place, under the process's lock.
    public func updateTuple(_ body: (inout PipeTuple) -> Void) {
        lock.withLock { body(&storedTuple) }
    }

    /// What the last action that ran in this call returned, optionals flattened; `nil` before any action ran.
    public var upstreamReturnValue: Any? {
        erasedUpstream()
    }

    /// The upstream return value when it is a `T`.
    public func upstreamReturn<T>(as type: T.Type = T.self) -> T? {
        upstreamReturnValue as? T
    }

    /// How many arguments the action takes.
    public var argumentCount: Int {
        erasedArgumentCount()
    }

    /// The argument at a 1-based position (as in `.param(_:kindOf:)`), as it stands now.
    public func argument(at index: Int) -> Any? {
        requireArgumentIndex(index, "ActionProcess.argument(at:)")
        return erasedArgument(at: index)
    }

    /// Replaces the argument at a 1-based position for every action after this one in the call (the seed's
    /// `changeArgumentOld:toNew:`). The value must have the argument's type.
    public func changeArgument<Value>(at index: Int, to value: Value) {
        requireArgumentIndex(index, "ActionProcess.changeArgument(at:to:)")
        if let expected = replaceArgument(at: index, with: value) {
            programmerError("ActionProcess.changeArgument(at:to:) needs a \(expected) for argument \(index) of "
                            + "\(actionName), got \(type(of: value as Any))")
        }
    }

    /// The pipe the call went through, typed; calling it again runs the chain from its head.
    public func root<Actions: Sendable>(as actions: Actions.Type = Actions.self) -> ActionPipe<Actions>? {
        entry as? ActionPipe<Actions>
    }

    private func requireArgumentIndex(_ index: Int, _ api: String) {
        let count = erasedArgumentCount()
        if !(1...max(count, 1)).contains(index) || count == 0 {
            programmerError("\(api) needs an index in 1...\(count) for \(actionName), got \(index)")
        }
    }

    // The typed subclass overrides these; the base class never stands alone.
    func erasedUpstream() -> Any? { nil }
    func erasedArgumentCount() -> Int { 0 }
    func erasedArgument(at index: Int) -> Any? { nil }
    /// Returns nil on success, or the expected type's name when `value` does not fit.
    func replaceArgument(at index: Int, with value: Any) -> String? { nil }
}

/// The process of one call of an action with arguments `Argument…` and result `Result`.
///
/// `@unchecked Sendable`: `arguments` and `lastReturn` are only touched under the inherited `lock`.
final class TypedProcess<each Argument, Result>: ActionProcess, @unchecked Sendable {
    /// Guarded by `lock`.
    private var arguments: (repeat each Argument)
    /// Guarded by `lock`. `nil` until an action ran.
    private var lastReturn: Result?

    init(arguments: (repeat each Argument), state: ActionState?, actionName: String, entry: AnyObject) {
        self.arguments = arguments
        super.init(state: state, actionName: actionName, entry: entry)
    }

    var currentArguments: (repeat each Argument) {
        lock.withLock { arguments }
    }

    var result: Result? {
        lock.withLock { lastReturn }
    }

    func record(_ value: Result) {
        lock.withLock { lastReturn = value }
    }

    override func erasedUpstream() -> Any? {
        guard let value = result else { return nil }
        return flattenOptional(value)
    }

    override func erasedArgumentCount() -> Int {
        packCount(repeat (each Argument).self)
    }

    override func erasedArgument(at index: Int) -> Any? {
        let arguments = currentArguments
        var position = 0
        for argument in repeat each arguments {
            position += 1
            if position == index {
                return flattenOptional(argument)
            }
        }
        return nil
    }

    override func replaceArgument(at index: Int, with value: Any) -> String? {
        lock.withLock {
            var replacer = ArgumentReplacer(target: index, value: value)
            let replaced = (repeat replacer.step(each arguments))
            if let mismatch = replacer.mismatch {
                return mismatch
            }
            arguments = replaced
            return nil
        }
    }

    /// Runs the registrations in chain order on the calling thread.
    func runSync(_ registrations: ContiguousArray<AnyObject>) -> Result? {
        for erased in registrations {
            // Safe: a slot identifies one key type, so every registration under it has exactly these types.
            let registration = unsafeDowncast(erased, to: Registration<repeat each Argument, Result>.self)
            guard registration.admits(self) else { continue }
            guard let body = registration.body else {
                programmerError("ActionPipe: \(actionName) has an async action; call it with callAsync")
            }
            let arguments = currentArguments
            if let value = body(self, repeat each arguments) {
                record(value)
            }
        }
        return result
    }

    /// Runs the registrations in chain order, awaiting async actions.
    func runAsync(_ registrations: ContiguousArray<AnyObject>) async -> Result? {
        for erased in registrations {
            let registration = unsafeDowncast(erased, to: Registration<repeat each Argument, Result>.self)
            guard registration.admits(self) else { continue }
            let arguments = currentArguments
            let value: Result??
            if let body = registration.asyncBody {
                value = await body(self, repeat each arguments)
            } else {
                value = registration.body?(self, repeat each arguments)
            }
            if let value, let value {
                record(value)
            }
        }
        return result
    }
}

/// Rebuilds an argument tuple element by element, swapping in a new value at one 1-based position.
private struct ArgumentReplacer {
    let target: Int
    let value: Any
    var position = 0
    var mismatch: String?

    mutating func step<Element>(_ old: Element) -> Element {
        position += 1
        guard position == target else { return old }
        if let new = value as? Element {
            return new
        }
        mismatch = String(describing: Element.self)
        return old
    }
}

/// Unwraps nested optionals held in an `Any` (`Optional<Any>.some(nil)` is nil, not a value).
func flattenOptional(_ value: Any) -> Any? {
    if let optional = value as? any OptionalFlattening {
        return optional.flattened
    }
    return value
}

private protocol OptionalFlattening {
    var flattened: Any? { get }
}

extension Optional: OptionalFlattening {
    fileprivate var flattened: Any? {
        switch self {
        case .some(let wrapped): flattenOptional(wrapped)
        case .none: nil
        }
    }
}
