/// One registered action: its requirements and its body. Immutable once built, so calls read it without a lock.
///
/// `@unchecked Sendable`: nothing is mutable after init and every stored closure is `@Sendable`.
@usableFromInline
final class Registration<each Argument, Result>: @unchecked Sendable {
    @usableFromInline let state: ActionState?
    let requirements: [ActionRequirement]
    /// Cached `!requirements.isEmpty`, read by every call.
    @usableFromInline let hasRequirements: Bool
    /// No state and no requirements: every call runs it, with one test.
    @usableFromInline let isUnconditional: Bool
    /// A plain `action`'s body, called directly (no wrapper closure per call). Calls read it as
    /// `registration.plainBody!(…)`, never through `if let`: a binding copies the closure, which retains and releases
    /// its context around every call, while a use in place borrows it from this immutable object.
    @usableFromInline let plainBody: PlainBody<repeat each Argument, Result>?
    /// Returns `nil` when the action decided not to run (a freed delegate, an upstream return of the wrong type).
    @usableFromInline let body: (@Sendable (ActionProcess, repeat each Argument) -> Result?)?
    @usableFromInline let asyncBody: (@Sendable (ActionProcess, repeat each Argument) async -> Result?)?
    /// Which body is set, so a call tests it without touching the closures (a variadic closure cannot be compared
    /// with nil, and binding it would copy it).
    @usableFromInline let hasPlainBody: Bool
    @usableFromInline let hasBody: Bool

    init(state: ActionState?, requirements: [ActionRequirement],
         plainBody: (@Sendable (ActionProcess, repeat each Argument) -> Result)?,
         body: (@Sendable (ActionProcess, repeat each Argument) -> Result?)?,
         asyncBody: (@Sendable (ActionProcess, repeat each Argument) async -> Result?)?) {
        self.state = state
        self.requirements = requirements
        self.hasRequirements = !requirements.isEmpty
        self.isUnconditional = state == nil && requirements.isEmpty
        if let plainBody {
            self.plainBody = PlainBody(call: plainBody)
            hasPlainBody = true
        } else {
            self.plainBody = nil
            hasPlainBody = false
        }
        if let body {
            self.body = body
            hasBody = true
        } else {
            self.body = nil
            hasBody = false
        }
        self.asyncBody = asyncBody
    }

    /// Whether the call, as it stands now, meets the state and every requirement. Call with the process's lock held.
    @inlinable @inline(__always)
    func admits(_ process: ActionProcess, callState: ActionState?) -> Bool {
        if let state, !state.admits(callState) {
            return false
        }
        return !hasRequirements || meetsRequirements(process)
    }

    /// Call with the process's lock held.
    @usableFromInline
    func meetsRequirements(_ process: ActionProcess) -> Bool {
        requirements.allSatisfy { $0.isMet(by: process) }
    }
}

/// A plain action's closure (a closure of a variadic function type can only be stored in an optional or compared
/// with nil inside a struct).
@usableFromInline
struct PlainBody<each Argument, Result> {
    @usableFromInline let call: @Sendable (ActionProcess, repeat each Argument) -> Result
}

/// A condition an action needs before it runs (the seed's `ActionRequirement` settings).
enum ActionRequirement: Sendable {
    /// The upstream return value is of a given type.
    case returnKind(@Sendable (Any) -> Bool)
    case returnNotNil
    /// The 1-based argument is of a given type.
    case paramKind(Int, @Sendable (Any) -> Bool)
    case paramNotNil(Int)

    /// Call with the process's lock held.
    func isMet(by process: ActionProcess) -> Bool {
        switch self {
        case .returnKind(let isKind):
            process.lockedUpstream().map(isKind) ?? false
        case .returnNotNil:
            process.lockedUpstream() != nil
        case .paramKind(let index, let isKind):
            process.lockedArgument(at: index).map(isKind) ?? false
        case .paramNotNil(let index):
            process.lockedArgument(at: index) != nil
        }
    }
}

/// Holds a delegate weakly for `delegate(_:_:)`.
final class WeakReference<Object: AnyObject & Sendable>: Sendable {
    weak let object: Object?

    init(_ object: Object) {
        self.object = object
    }
}
