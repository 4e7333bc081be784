#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RippleCore

/// An action made of a closure, for small behaviours that do not deserve a subclass.
///
/// ```swift
/// let pause = BlockLifecycleAction(on: [.willDisappear, .willAppear]) { phase, host, animated in
///     phase == .willAppear ? player.resume() : player.pause()
/// }
/// LifecycleActions.registerGlobal(pause)
/// ```
@MainActor
public final class BlockLifecycleAction: LifecycleAction {
    /// The phases the block runs for.
    public let phases: Set<LifecyclePhase>
    private let block: @MainActor (LifecyclePhase, any LifecycleHost, Bool) -> Void

    /// - Parameters:
    ///   - phases: the phases the block runs for; at least one.
    ///   - identifier: the action's identity.
    ///   - block: receives the phase, the host and the `animated` flag (`false` for `didLoad`).
    public init(on phases: Set<LifecyclePhase>, identifier: String = UUID().uuidString,
                _ block: @escaping @MainActor (_ phase: LifecyclePhase, _ host: any LifecycleHost,
                                               _ animated: Bool) -> Void) {
        if phases.isEmpty {
            programmerError("BlockLifecycleAction.init(on:) needs at least one phase, got []")
        }
        self.phases = phases
        self.block = block
        super.init(identifier: identifier)
    }

    override public func hostDidLoad(_ host: any LifecycleHost) {
        run(.didLoad, host, false)
    }

    override public func host(_ host: any LifecycleHost, willAppear animated: Bool) {
        run(.willAppear, host, animated)
    }

    override public func host(_ host: any LifecycleHost, didAppear animated: Bool) {
        run(.didAppear, host, animated)
    }

    override public func host(_ host: any LifecycleHost, willDisappear animated: Bool) {
        run(.willDisappear, host, animated)
    }

    override public func host(_ host: any LifecycleHost, didDisappear animated: Bool) {
        run(.didDisappear, host, animated)
    }

    private func run(_ phase: LifecyclePhase, _ host: any LifecycleHost, _ animated: Bool) {
        if phases.contains(phase) {
            block(phase, host, animated)
        }
    }
}
