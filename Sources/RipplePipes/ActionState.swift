/// A set of state bits attached to an action with `.state(_:)` and selected by ``ActionPipe/doWithState(_:)``.
///
/// The seed uses plain integers as bit masks (`state(1)`, `state(10)`, `doWithState(1 | 10)`); integer literals work
/// here too, and an array literal is their union: `doWithState([1, 10])`. Name your own states in an extension:
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
