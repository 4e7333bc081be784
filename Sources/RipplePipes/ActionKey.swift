import RippleCore

/// One action of an actions "protocol": its name, its argument types and its result type.
///
/// Group the keys of one feature in a struct and give an ``ActionPipe`` a value of it; the pipe then exposes every
/// key as a typed method:
///
/// ```swift
/// struct ShareActions {
///     var someFunc = ActionKey<Int, Any?, Double>("someFuncWithNumber:object:")   // (Int, Any?) -> Double
///     var someFunc3 = ActionKey<Void>("someFunc3")                               // () -> Void
/// }
/// let pipe = ActionPipe(ShareActions())
/// let result: Double? = pipe.someFunc(999, [1, 2, 3])
/// ```
///
/// The last generic argument is the result; the ones before it are the arguments. Two keys are the same action when
/// they have the same name and the same types, so pipes built from different values of the same struct agree.
public struct ActionKey<each Argument, Result>: Sendable, Hashable {
    /// The action's name (the seed's selector), used in messages.
    public let name: String
    /// The interned identity of (name, types): the cheap key every lookup uses instead of the name.
    @usableFromInline let slot: Int

    public init(_ name: String) {
        self.name = name
        self.slot = ActionSlots.slot(name: name, type: ObjectIdentifier(Self.self))
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.slot == rhs.slot
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(slot)
    }

    /// How many arguments the action takes.
    public var argumentCount: Int {
        packCount(repeat (each Argument).self)
    }
}

/// Interns (name, key type) pairs into small integers, once per key value rather than once per call.
enum ActionSlots {
    private struct Identity: Hashable {
        let name: String
        let type: ObjectIdentifier
    }

    private struct Table {
        var slots: [Identity: Int] = [:]
        /// Indexed by slot: processes keep only the slot and ask for the name when a message needs it.
        var names: [String] = []
    }

    private static let table = Locked(Table())

    static func slot(name: String, type: ObjectIdentifier) -> Int {
        table.withLock { table in
            let identity = Identity(name: name, type: type)
            if let slot = table.slots[identity] {
                return slot
            }
            let slot = table.names.count
            table.slots[identity] = slot
            table.names.append(name)
            return slot
        }
    }

    static func name(of slot: Int) -> String {
        table.withLock { $0.names[slot] }
    }
}

/// The number of elements of a type pack.
func packCount<each Element>(_ types: repeat (each Element).Type) -> Int {
    var count = 0
    for _ in repeat each types {
        count += 1
    }
    return count
}
