// A stand-in for Apple's ObjectiveC module on Linux, only to typecheck Ripple's `#if canImport(UIKit)` branch (with
// `-enable-objc-interop`; .ci/typecheck-darwin). Every declaration copies the signature Swift imports from the
// macOS 15 / iOS 18 SDK headers (<objc/runtime.h>). NSObject comes from Linux's Foundation, which the compiler's
// `@objc` checks ask for.
@_exported import Glibc

public struct Selector: Hashable, Sendable, CustomStringConvertible {
    private let name: String
    public init(_ name: String) { self.name = name }
    public var description: String { name }
}

public typealias Method = OpaquePointer
public typealias IMP = OpaquePointer

public func class_getInstanceMethod(_ cls: AnyClass?, _ name: Selector) -> Method? { nil }
public func method_exchangeImplementations(_ m1: Method, _ m2: Method) {}

public enum objc_AssociationPolicy: UInt, Sendable {
    case OBJC_ASSOCIATION_ASSIGN = 0
    case OBJC_ASSOCIATION_RETAIN_NONATOMIC = 1
    case OBJC_ASSOCIATION_COPY_NONATOMIC = 3
    case OBJC_ASSOCIATION_RETAIN = 769
    case OBJC_ASSOCIATION_COPY = 771
}

public func objc_getAssociatedObject(_ object: Any, _ key: UnsafeRawPointer) -> Any? { nil }
public func objc_setAssociatedObject(_ object: Any, _ key: UnsafeRawPointer, _ value: Any?,
                                     _ policy: objc_AssociationPolicy) {}

// How Swift bridges `Bool` in `@objc` signatures (`- (void)viewDidAppear:(BOOL)animated`); the compiler looks these
// up by name when it lowers an `@objc` method taking a Bool.
@frozen
public struct ObjCBool: Sendable {
    private var value: UInt8
    public init(_ value: Bool) { self.value = value ? 1 : 0 }
    public var boolValue: Bool { value != 0 }
}

public func _convertBoolToObjCBool(_ x: Bool) -> ObjCBool { ObjCBool(x) }
public func _convertObjCBoolToBool(_ x: ObjCBool) -> Bool { x.boolValue }
