#if canImport(UIKit)
import ObjectiveC
import RippleCore
import UIKit

// The Objective-C runtime glue of `installOnAllViewControllers()`: compiled only where UIKit exists, typechecked on
// Linux by .ci/typecheck-darwin against the stand-in modules in .ci/darwin-shim, never run by this package's tests.
// Everything it calls after the original implementation is `LifecycleInjection.deliver`, tested on Linux.
//
// Invariants: the five appearance methods of `UIViewController` itself are exchanged with the `ripple_` methods
// below exactly once per process (`InstallOnce`), so inside a `ripple_` method the same selector calls the original
// implementation. A subclass's override reaches the actions where it calls `super`, as in the seed (its code before
// `super`, UIKit's work, the actions, its code after); an override that never calls `super` runs no actions, as in
// the seed. Each view controller's host is an associated object it owns (`lifecycleHost`).

/// Where every view controller keeps its ``AttachedLifecycleHost``. Only the address identifies the association:
/// one byte allocated once and never freed, read or written, so the pointer may be shared across threads.
private struct AssociationKey: @unchecked Sendable {
    let address = UnsafeRawPointer(UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1))
}

private let lifecycleHostKey = AssociationKey()
private let viewControllerInstallation = InstallOnce()

extension LifecycleActions {
    /// Adds the registered actions to every `UIViewController`, with no base class to adopt: after each appearance
    /// method (`viewDidLoad`, `viewWillAppear(_:)`, `viewDidAppear(_:)`, `viewWillDisappear(_:)`,
    /// `viewDidDisappear(_:)`) the global actions run, then the controller's own (registered on its
    /// `lifecycleHost`) — the seed's swizzling, opt-in. Call it once at launch; later calls, from any thread, do
    /// nothing.
    ///
    /// A view controller that adopts ``LifecycleHost`` itself (the base-class recipe) keeps reporting its own
    /// events and is left alone, so its actions never run twice.
    ///
    /// - Returns: whether this call installed the actions (`false` when an earlier call did).
    @discardableResult
    public nonisolated static func installOnAllViewControllers() -> Bool {
        viewControllerInstallation.run {
            exchange(#selector(UIViewController.viewDidLoad), with: #selector(UIViewController.ripple_viewDidLoad))
            exchange(#selector(UIViewController.viewWillAppear(_:)),
                     with: #selector(UIViewController.ripple_viewWillAppear(_:)))
            exchange(#selector(UIViewController.viewDidAppear(_:)),
                     with: #selector(UIViewController.ripple_viewDidAppear(_:)))
            exchange(#selector(UIViewController.viewWillDisappear(_:)),
                     with: #selector(UIViewController.ripple_viewWillDisappear(_:)))
            exchange(#selector(UIViewController.viewDidDisappear(_:)),
                     with: #selector(UIViewController.ripple_viewDidDisappear(_:)))
        }
    }

    /// Whether ``installOnAllViewControllers()`` has run.
    public nonisolated static var isInstalledOnAllViewControllers: Bool {
        viewControllerInstallation.hasRun
    }
}

private func exchange(_ original: Selector, with replacement: Selector) {
    guard let originalMethod = class_getInstanceMethod(UIViewController.self, original),
          let replacementMethod = class_getInstanceMethod(UIViewController.self, replacement)
    else {
        programmerError("LifecycleActions.installOnAllViewControllers() found no UIViewController method "
            + "'\(original)' to attach to")
    }
    method_exchangeImplementations(originalMethod, replacementMethod)
}

extension UIViewController {
    /// The host standing for this view controller: register its own actions here. Made on first use and kept
    /// as long as the controller (an associated object).
    public var lifecycleHost: AttachedLifecycleHost<UIViewController> {
        if let host = objc_getAssociatedObject(self, lifecycleHostKey.address)
            as? AttachedLifecycleHost<UIViewController> {
            return host
        }
        let host = AttachedLifecycleHost<UIViewController>(owner: self)
        objc_setAssociatedObject(self, lifecycleHostKey.address, host, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
        return host
    }

    // After the exchange each of these runs in place of the UIKit method, and calling itself calls the original.
    @objc dynamic func ripple_viewDidLoad() {
        ripple_viewDidLoad()
        LifecycleInjection.deliver(.didLoad, from: self) { lifecycleHost }
    }

    @objc dynamic func ripple_viewWillAppear(_ animated: Bool) {
        ripple_viewWillAppear(animated)
        LifecycleInjection.deliver(.willAppear(animated: animated), from: self) { lifecycleHost }
    }

    @objc dynamic func ripple_viewDidAppear(_ animated: Bool) {
        ripple_viewDidAppear(animated)
        LifecycleInjection.deliver(.didAppear(animated: animated), from: self) { lifecycleHost }
    }

    @objc dynamic func ripple_viewWillDisappear(_ animated: Bool) {
        ripple_viewWillDisappear(animated)
        LifecycleInjection.deliver(.willDisappear(animated: animated), from: self) { lifecycleHost }
    }

    @objc dynamic func ripple_viewDidDisappear(_ animated: Bool) {
        ripple_viewDidDisappear(animated)
        LifecycleInjection.deliver(.didDisappear(animated: animated), from: self) { lifecycleHost }
    }
}
#endif
