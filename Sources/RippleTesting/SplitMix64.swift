/// A small, fast, deterministic random number generator (SplitMix64), for model-based tests that must try the same
/// sequences on every run and replay a failing case from its seed. `package`: Ripple's own model-based tests use it;
/// a user's tests have no need of it from here (any seeded generator will do).
///
/// ```swift
/// var generator = SplitMix64(seed: 42)
/// let values = (0..<10).map { _ in Int.random(in: 0..<100, using: &generator) }
/// ```
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
