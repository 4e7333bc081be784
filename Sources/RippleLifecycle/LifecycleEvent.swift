/// One of the five moments of a host's life that actions can hook into.
public enum LifecyclePhase: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case didLoad
    case willAppear
    case didAppear
    case willDisappear
    case didDisappear

    public var description: String {
        switch self {
        case .didLoad: "didLoad"
        case .willAppear: "willAppear"
        case .didAppear: "didAppear"
        case .willDisappear: "willDisappear"
        case .didDisappear: "didDisappear"
        }
    }
}

/// A lifecycle event delivered to a host: a phase and, for the four appearance phases, whether it is animated.
///
/// ```swift
/// LifecycleActions.dispatch(.didAppear(animated: true), to: screen)
/// ```
public enum LifecycleEvent: Hashable, Sendable, CustomStringConvertible {
    case didLoad
    case willAppear(animated: Bool)
    case didAppear(animated: Bool)
    case willDisappear(animated: Bool)
    case didDisappear(animated: Bool)

    /// The event for `phase`; `animated` is ignored for ``LifecyclePhase/didLoad``.
    public init(_ phase: LifecyclePhase, animated: Bool) {
        switch phase {
        case .didLoad: self = .didLoad
        case .willAppear: self = .willAppear(animated: animated)
        case .didAppear: self = .didAppear(animated: animated)
        case .willDisappear: self = .willDisappear(animated: animated)
        case .didDisappear: self = .didDisappear(animated: animated)
        }
    }

    public var phase: LifecyclePhase {
        switch self {
        case .didLoad: .didLoad
        case .willAppear: .willAppear
        case .didAppear: .didAppear
        case .willDisappear: .willDisappear
        case .didDisappear: .didDisappear
        }
    }

    /// Whether the transition is animated; `false` for ``didLoad``, which has no animation.
    public var animated: Bool {
        switch self {
        case .didLoad: false
        case .willAppear(let animated), .didAppear(let animated),
             .willDisappear(let animated), .didDisappear(let animated):
            animated
        }
    }

    public var description: String {
        self == .didLoad ? "didLoad" : "\(phase)(animated: \(animated))"
    }
}
