#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Runs a block once, at the first `didAppear` it sees — the seed's `DZVCOnceLifeCircleAction`, the end of
/// `_firstAppear` flags.
///
/// ```swift
/// contacts.registerLifecycleAction(OnceLifecycleAction { host, animated in
///     ContactMonitor.user.asyncLoadSystemContacts()
/// })
/// ```
///
/// By default the action fires once in its whole life (``Scope-swift.enum/perAction``), as in the seed, even if it
/// is registered on several hosts or globally. With ``Scope-swift.enum/perHost`` it fires once for every host it
/// sees appear.
@MainActor
public final class OnceLifecycleAction: LifecycleAction {
    /// How often the block may run.
    public enum Scope: Sendable, Hashable {
        /// Once in the action's life, at the first `didAppear` of any host.
        case perAction
        /// Once per host, at each host's first `didAppear`.
        case perHost
    }

    public let scope: Scope
    private let block: @MainActor (any LifecycleHost, Bool) -> Void
    private var fired = false
    /// Names this action in the marks of the hosts it served in ``Scope-swift.enum/perHost`` mode (see
    /// ``HostMarks``): an O(1) look-up in the host's own list, where a list of served hosts was scanned on each
    /// appearance.
    private let serial = ActionSerial.next()

    /// - Parameters:
    ///   - scope: once per action (the default, as in the seed) or once per host.
    ///   - identifier: the action's identity.
    ///   - block: receives the host and the `animated` flag of its first `didAppear`.
    public init(scope: Scope = .perAction, identifier: String = UUID().uuidString,
                _ block: @escaping @MainActor (_ host: any LifecycleHost, _ animated: Bool) -> Void) {
        self.scope = scope
        self.block = block
        super.init(identifier: identifier)
    }

    /// Whether the block has run at least once.
    public var hasFired: Bool {
        fired
    }

    override public func host(_ host: any LifecycleHost, didAppear animated: Bool) {
        switch scope {
        case .perAction:
            guard !fired else { return }
        case .perHost:
            guard host.lifecycleActions.marks.servedOnce.insert(serial).inserted else { return }
        }
        // Marked before the call, so a block that makes the host appear again cannot fire twice.
        fired = true
        block(host, animated)
    }
}
