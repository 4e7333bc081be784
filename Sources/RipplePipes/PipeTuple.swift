import RippleCore

/// Extra values an action hands to the actions after it in the same call (the seed's `JDTuple`), reached through
/// ``ActionProcess/tuple``.
///
/// Values are positional (0-based, like a Swift tuple's `.0`, `.1`) and may also carry a key:
///
/// ```swift
/// process.tuple = PipeTuple(date, "Robot No.999 birth day")      // upstream
/// if let (date, text) = process.tuple.unpack(Date.self, String.self) { … }   // downstream
/// process.tuple["user"] = user                                      // keyed
/// ```
public struct PipeTuple: ExpressibleByArrayLiteral {
    private var values: [Any?] = []
    private var keys: [String?] = []

    public init() {}

    public init(_ values: Any?...) {
        self.values = values
        self.keys = Array(repeating: nil, count: values.count)
    }

    public init(arrayLiteral values: Any?...) {
        self.values = values
        self.keys = Array(repeating: nil, count: values.count)
    }

    /// A tuple of keyed values, in the order given (a key given twice names its later value).
    public init(keyed pairs: KeyValuePairs<String, Any?>) {
        for (key, value) in pairs {
            append(value, key: key)
        }
    }

    public var count: Int {
        values.count
    }

    public var isEmpty: Bool {
        values.isEmpty
    }

    /// The value at a 0-based position.
    public subscript(position: Int) -> Any? {
        get {
            guard values.indices.contains(position) else {
                programmerError("PipeTuple[_:] needs a position in 0..<\(values.count), got \(position)")
            }
            return values[position]
        }
        set {
            guard values.indices.contains(position) else {
                programmerError("PipeTuple[_:] needs a position in 0..<\(values.count), got \(position)")
            }
            values[position] = newValue
        }
    }

    /// The value stored under `key`; setting a new key appends it. When `key` was appended more than once, it names
    /// the latest value, so an action downstream that appends a key again overrides what upstream handed down.
    public subscript(key: String) -> Any? {
        get {
            // The last: the first made a key appended again keep answering with the upstream value.
            keys.lastIndex(of: key).flatMap { values[$0] }
        }
        set {
            if let index = keys.lastIndex(of: key) {
                values[index] = newValue
            } else {
                append(newValue, key: key)
            }
        }
    }

    /// Appends `value` at the next position, under `key` if one is given (a key given again names this value from
    /// now on; the earlier one keeps its position).
    public mutating func append(_ value: Any?, key: String? = nil) {
        values.append(value)
        keys.append(key)
    }

    /// The value at `position` when it is a `T`.
    public func value<T>(at position: Int, as type: T.Type = T.self) -> T? {
        values.indices.contains(position) ? values[position].flatMap { $0 as? T } : nil
    }

    /// The value under `key` when it is a `T`.
    public func value<T>(forKey key: String, as type: T.Type = T.self) -> T? {
        self[key].flatMap { $0 as? T }
    }

    /// All positions at once, typed (the seed's `jd_unpack`): nil unless the tuple has exactly these types in order.
    /// A `nil` member unpacks as `nil` where an optional type is asked for (`unpack(Date.self, String?.self)` of
    /// `PipeTuple(date, nil)` is `(date, nil)`), as the seed's tuple hands a nil member out as nil.
    public func unpack<each T>(_ types: repeat (each T).Type) -> (repeat each T)? {
        guard packCount(repeat (each T).self) == values.count else { return nil }
        var cursor = TupleCursor(values: values)
        let elements = (repeat cursor.next(each types))
        if cursor.failed { return nil }
        return (repeat (each elements)!)
    }
}

/// Walks a tuple's values in order while a pack expansion asks for one typed element after another.
private struct TupleCursor {
    let values: [Any?]
    var position = 0
    var failed = false

    mutating func next<T>(_ type: T.Type) -> T? {
        defer { position += 1 }
        guard let value = values[position] else {
            // The member was stored as `Any?.none`, which no cast turns into a `T`: a nil member fits an optional T
            // only, as its `none` (without this, one nil member made the whole unpack fail).
            if let optional = T.self as? any NilMember.Type, let none = optional.nilMember as? T {
                return none
            }
            failed = true
            return nil
        }
        return value as? T ?? {
            failed = true
            return nil
        }()
    }
}

/// The optional types: what a nil tuple member can be unpacked as.
private protocol NilMember {
    static var nilMember: Any { get }
}

extension Optional: NilMember {
    fileprivate static var nilMember: Any {
        Self.none as Any
    }
}
