@_exported import RipplePipes

/// Turns a protocol into the keys of a pipe and a proxy conforming to it (the seed's `(id<protocol>)pipe`):
/// `@ActionProtocol protocol ShareActions { … }` generates `ShareActionsKeys` (one `ActionKey` per method) and
/// `ShareActionsProxy`, so that
///
/// ```swift
/// let pipe = ActionPipe<ShareActionsKeys>()
/// pipe.registerAction(\.someFunc).action { process, number, object in 100 }
/// let actions: any ShareActions = pipe.as(ShareActions.self)
/// actions.someFunc(number: 999, object: [1, 2, 3])     // runs the chain's actions
/// ```
///
/// Every member must be an instance method with concrete types (`async` and `throws` are fine); a property, a
/// subscript, a static or generic method, an associated type or an overloaded name is refused with an error
/// naming it. See the RipplePipes article "A pipe as a protocol".
@attached(peer, names: suffixed(Keys), suffixed(Proxy))
public macro ActionProtocol() = #externalMacro(module: "RipplePipesMacros", type: "ActionProtocolMacro")
