// A stand-in for Apple's UIKit on Linux, only to typecheck Ripple's `#if canImport(UIKit)` branch (with
// `-enable-objc-interop`; .ci/typecheck-darwin): the part of `UIViewController` Ripple uses, with the SDK's
// signatures (iOS 18: `@MainActor`, Objective-C methods).
@_exported import Foundation
@_exported import ObjectiveC

@MainActor
open class UIResponder: NSObject {}

@MainActor
open class UIViewController: UIResponder {
    @objc open func viewDidLoad() {}
    @objc open func viewWillAppear(_ animated: Bool) {}
    @objc open func viewDidAppear(_ animated: Bool) {}
    @objc open func viewWillDisappear(_ animated: Bool) {}
    @objc open func viewDidDisappear(_ animated: Bool) {}
}
