/// The errors a pipe call throws itself, as opposed to those its actions throw.
///
/// Invariant: only a `throws` method of an `@ActionProtocol` proxy throws it (through ``ActionProxyResult``'s
/// `unwrapThrowing`); every other call without an action returns `nil` or stops with a programmer error, as
/// documented where it is declared.
public enum ActionPipeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No action ran in the chain for a `throws` method that has a result to return (neither `Void` nor optional):
    /// nothing was registered, or every action was filtered out by its state or requirements. `action` names the
    /// method as its key does, `Loading.save(_:)`.
    case noActionRan(action: String)

    public var description: String {
        switch self {
        case .noActionRan(let action):
            "\(action): no action ran in the chain, so there is no result to return"
        }
    }
}
