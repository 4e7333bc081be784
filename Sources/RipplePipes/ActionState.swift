import RippleCore

/// A set of state bits attached to an action with `.state(_:)` and selected by ``ActionPipe/doWithState(_:)``.
///
/// The seed uses plain integers as bit masks (`state(1)`, `state(10)`, `doWithState(1 | 10)`); the same spellings work
/// here: integer literals are states, `|` is their union (as is an array literal, `doWithState([1, 10])`), and an
/// integer held in a variable converts with `ActionState(mask)`. Name your own states in an extension:
///
/// ```swift
/// extension ActionState {
///     static let loggedIn: ActionState = 1
///     static let guest: ActionState = 2
/// }
/// ```
public struct ActionState: OptionSet, Sendable, Hashable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    public let rawValue: UInt64

    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public init(integerLiteral value: UInt64) {
        self.rawValue = value
    }

    /// The state whose bits are `mask`'s; a mask outside `0...UInt64.max` (negative, or wider than 64 bits) stops with
    /// a programmer error naming it.
    public init(_ mask: some BinaryInteger) {
        guard mask >= 0 else {
            programmerError("ActionState.init(_:) needs a mask ≥ 0, got \(mask)")
        }
        guard let bits = UInt64(exactly: mask) else {
            // Not "≥ 0", which it is: the bits above the 64th would be lost.
            programmerError("ActionState.init(_:) needs a mask of at most 64 bits (≤ \(UInt64.max)), got \(mask)")
        }
        self.rawValue = bits
    }

    /// The union of two states: `doWithState(1 | 10)` runs the actions of state 1 and of state 10.
    public static func | (lhs: ActionState, rhs: ActionState) -> ActionState {
        lhs.union(rhs)
    }

    /// Stops with a programmer error naming `api` when this state has no bit set. The empty state shares a bit with
    /// nothing: an action registered with it would run in no `doWithState` call, and a `doWithState` call made with
    /// it would run only the actions without a state, both silently. It is a mask computed as 0, or the seed's habit
    /// of 0 for "no state", which Ripple spells by leaving the state out.
    func requireSomeBit(_ api: @autoclosure () -> String, instead: @autoclosure () -> String) {
        if rawValue == 0 {
            programmerError("\(api()) needs a state with at least one bit set, got \(self): \(instead())")
        }
    }

    /// What to do instead of a call made with the empty state.
    static let emptyCallAdvice = "it would run only the actions registered without a state; call the pipe directly "
        + "(or doWithTuple(_:)) to run every action"

    /// Whether an action registered with `self` runs in a call made with `callState` (nil: a call without state).
    @inlinable
    func admits(_ callState: ActionState?) -> Bool {
        guard let callState else { return true }
        return !isDisjoint(with: callState)
    }

    public var description: String {
        "ActionState(\(rawValue))"
    }
}
