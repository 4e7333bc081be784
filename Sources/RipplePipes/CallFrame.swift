/// The typed state of one call: its arguments as they stand now and what the last action that ran returned.
///
/// A synchronous call keeps its frame on its own stack and its ``ActionProcess`` points at it; an async call, or a
/// process still referenced when its call ends, keeps it in a ``FrameBox``.
@usableFromInline @frozen
struct CallFrame<each Argument, Result> {
    @usableFromInline var arguments: (repeat each Argument)
    /// `nil` until an action ran.
    @usableFromInline var lastReturn: Result?

    @inlinable
    init(arguments: (repeat each Argument)) {
        self.arguments = arguments
        self.lastReturn = nil
    }
}

/// A frame on the heap, for calls whose process must outlive the caller's stack.
///
/// `@unchecked Sendable`: the frame is only touched under the lock of the process that owns the box.
@usableFromInline @_fixed_layout
final class FrameBox<each Argument, Result>: @unchecked Sendable {
    @usableFromInline let pointer: UnsafeMutablePointer<CallFrame<repeat each Argument, Result>>

    @inlinable
    init(_ frame: CallFrame<repeat each Argument, Result>) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: frame)
    }

    deinit {
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }
}

/// What the type-erased side of ``ActionProcess`` needs to read and change a frame of a type it does not know.
/// Every method expects the owning process's lock to be held.
///
/// `assumingMemoryBound(to: Frame.self)` below is sound because a process's `frame` and `access` are set together,
/// by the same generic call, from a `CallFrame` of exactly these types: the caller's `var frame` (bound by its
/// declaration) or a ``FrameBox``'s allocation (bound and initialised as one), and cleared together.
@usableFromInline
protocol FrameAccess {
    static var argumentCount: Int { get }
    static func upstream(_ frame: UnsafeMutableRawPointer) -> Any?
    static func argument(_ frame: UnsafeMutableRawPointer, at index: Int) -> Any?
    /// Returns the replaced arguments on success (to be released after the lock: a deinit may use the process), or
    /// the expected type's name when `value` does not fit.
    static func replaceArgument(_ frame: UnsafeMutableRawPointer, at index: Int,
                                with value: Any) -> Swift.Result<Any, ArgumentMismatch>
    /// Copies the frame to the heap; returns the box (to keep) and the copy's address.
    static func box(copying frame: UnsafeMutableRawPointer) -> (AnyObject, UnsafeMutableRawPointer)
}

/// Never instantiated: its metatype is the ``FrameAccess`` of one frame type (enums cannot declare type packs).
@usableFromInline
struct FrameAccessor<each Argument, Result>: FrameAccess {
    typealias Frame = CallFrame<repeat each Argument, Result>

    @usableFromInline
    static var argumentCount: Int {
        packCount(repeat (each Argument).self)
    }

    @usableFromInline
    static func upstream(_ frame: UnsafeMutableRawPointer) -> Any? {
        guard let value = frame.assumingMemoryBound(to: Frame.self).pointee.lastReturn else { return nil }
        return flattenOptional(value)
    }

    @usableFromInline
    static func argument(_ frame: UnsafeMutableRawPointer, at index: Int) -> Any? {
        let arguments = frame.assumingMemoryBound(to: Frame.self).pointee.arguments
        var position = 0
        for argument in repeat each arguments {
            position += 1
            if position == index {
                return flattenOptional(argument)
            }
        }
        return nil
    }

    @usableFromInline
    static func replaceArgument(_ frame: UnsafeMutableRawPointer, at index: Int,
                                with value: Any) -> Swift.Result<Any, ArgumentMismatch> {
        let typed = frame.assumingMemoryBound(to: Frame.self)
        var replacer = ArgumentReplacer(target: index, value: value)
        var replaced = (repeat replacer.step(each typed.pointee.arguments))
        if let mismatch = replacer.mismatch {
            return .failure(ArgumentMismatch(expected: mismatch))
        }
        swap(&replaced, &typed.pointee.arguments)
        return .success(replaced)
    }

    @usableFromInline
    static func box(copying frame: UnsafeMutableRawPointer) -> (AnyObject, UnsafeMutableRawPointer) {
        let box = FrameBox(frame.assumingMemoryBound(to: Frame.self).pointee)
        return (box, UnsafeMutableRawPointer(box.pointer))
    }
}

/// The type an argument needed, for `changeArgument(at:to:)`'s message.
@usableFromInline
struct ArgumentMismatch: Error {
    let expected: String
}

/// Rebuilds an argument tuple element by element, swapping in a new value at one 1-based position.
private struct ArgumentReplacer {
    let target: Int
    let value: Any
    var position = 0
    var mismatch: String?

    mutating func step<Element>(_ old: Element) -> Element {
        position += 1
        guard position == target else { return old }
        if let new = value as? Element {
            return new
        }
        mismatch = String(describing: Element.self)
        return old
    }
}

/// Unwraps nested optionals held in an `Any` (`Optional<Any>.some(nil)` is nil, not a value).
func flattenOptional(_ value: Any) -> Any? {
    if let optional = value as? any OptionalFlattening {
        return optional.flattened
    }
    return value
}

private protocol OptionalFlattening {
    var flattened: Any? { get }
}

extension Optional: OptionalFlattening {
    fileprivate var flattened: Any? {
        switch self {
        case .some(let wrapped): flattenOptional(wrapped)
        case .none: nil
        }
    }
}
