// The eight "kairo" shapes of js-reactivity-benchmark (packages/core/src/benches/kairo: deep, broad, diamond,
// triangle, mux, repeated observers, unstable, avoidable propagation) built on RippleNodes' public API. One file
// serves both the callgrind harness (Benchmarks/callgrind/NodesCallgrind.swift compiles it in) and the
// package-benchmark suite (KairoBenchmarks.swift), so the two measure the same graphs; it imports no Benchmark.
//
// Invariants:
// - Sizes and effect counts are the JS cases': one JS `computed` is one derived node (a `map`, or `combine` + `map`
//   where it reads several nodes), one JS `effect` is one listener, and an update is one set of a source (the JS
//   cases write one signal inside `withBatch`; a Ripple set is a transaction on its own, so no `Node.batch`).
// - Update k (k = 1, 2, …) writes a value the source does not hold, so every update propagates in both.
// - alien-signals stops propagating where a computed recomputes a value equal to its old one. Ripple does not, so a
//   `distinctUntilChanged` follows the node that plays such a computed — in `avoidable` (computed2, always 0) and
//   `mux` (each `mux[index]`, unchanged for 99 of the 100 on every update) and nowhere else: under these updates
//   no other computed of the eight ever recomputes an equal value.
// - `verify(updates:)` checks the number of effect runs and the sum of the values the effects saw since setup
//   against the JS case's counts and assertions; setup checks the effects' first runs. A wrong shape stops the run.
import RippleCore
import RippleNodes

/// What the effects of one graph saw. Written from that graph's listeners, which one thread drives.
final class KairoEffects: @unchecked Sendable {
    // No dynamic exclusivity check (~20 instructions per access), so the figures count the engine's work.
    @exclusivity(unchecked) var runs = 0
    @exclusivity(unchecked) var total = 0
    @exclusivity(unchecked) var last = 0

    @inline(__always)
    func run(_ value: Int) {
        runs &+= 1
        total &+= value
        last = value
    }
}

/// One built kairo graph: `update(k)` runs update k; the graph lives until `cancel()`.
struct KairoGraph {
    let name: String
    /// Effect runs per update in the JS case (alien-signals runs exactly these).
    let effectsPerUpdate: Int
    let update: (Int) -> Void
    /// The sum of the values the effects see over updates 1…n.
    let expectedTotal: (Int) -> Int
    let effects: KairoEffects
    let bag: CancelBag

    /// Names the callgrind harness and the benchmarks use, in js-reactivity-benchmark's order.
    static let names = ["KairoAvoidable", "KairoBroad", "KairoDeep", "KairoDiamond", "KairoMux", "KairoRepeated",
                        "KairoTriangle", "KairoUnstable"]

    static func named(_ name: String) -> KairoGraph? {
        switch name {
        case "KairoAvoidable": avoidable()
        case "KairoBroad": broad()
        case "KairoDeep": deep()
        case "KairoDiamond": diamond()
        case "KairoMux": mux()
        case "KairoRepeated": repeated()
        case "KairoTriangle": triangle()
        case "KairoUnstable": unstable()
        default: nil
        }
    }

    /// Checks what the effects saw after updates 1…`updates`; stops the program with the difference if wrong.
    func verify(updates: Int) {
        let runs = effectsPerUpdate * updates
        let total = expectedTotal(updates)
        if effects.runs != runs || effects.total != total {
            fatalError("\(name): after \(updates) updates the effects ran \(effects.runs) times and saw a total of "
                       + "\(effects.total); js-reactivity-benchmark's shape gives \(runs) runs and \(total)")
        }
    }

    func cancel() { bag.cancel() }

    /// Builds the graph's effects through `attach`, checks their first runs (every JS effect runs once when created;
    /// a Ripple listener hears a node's value when attached), then counts from zero.
    private init(_ name: String, effectsPerUpdate: Int, setupRuns: Int, update: @escaping (Int) -> Void,
                 expectedTotal: @escaping (Int) -> Int, attach: (CancelBag, KairoEffects) -> Void) {
        let effects = KairoEffects()
        let bag = CancelBag()
        attach(bag, effects)
        if effects.runs != setupRuns {
            fatalError("\(name): \(effects.runs) effects ran at setup; js-reactivity-benchmark's shape runs "
                       + "\(setupRuns)")
        }
        effects.runs = 0
        effects.total = 0
        self.name = name
        self.effectsPerUpdate = effectsPerUpdate
        self.update = update
        self.expectedTotal = expectedTotal
        self.effects = effects
        self.bag = bag
    }
}

/// 1 + 2 + … + n.
@inline(__always)
private func triangular(_ n: Int) -> Int { n * (n + 1) / 2 }

/// The JS cases' `busy()`: a hundred increments standing for heavy work. In `avoidable` it never runs per update
/// (the cut stops propagation before it), only at setup.
@inline(never)
func kairoBusy() {
    var count = 0
    for _ in 0..<100 { count &+= 1 }
    kairoBusyCount &+= count
}

nonisolated(unsafe) var kairoBusyCount = 0

extension KairoGraph {
    /// A chain of 50 computeds, `c(i) = c(i − 1) + 1`, and one effect on the last: 1 effect run per update.
    static func deep() -> KairoGraph {
        let head = MutableNode(0)
        var current: Node<Int> = head
        for _ in 0..<50 { current = current.map { $0 &+ 1 } }
        return KairoGraph("KairoDeep", effectsPerUpdate: 1, setupRuns: 1, update: { head.value = $0 },
                          expectedTotal: { triangular($0) + 50 * $0 }) { bag, effects in
            current.listened(by: bag).withBlock { effects.run($0) }
        }
    }

    /// 50 pairs hanging off the head, `head + i` then `+ 1`, each with an effect: 50 effect runs per update.
    static func broad() -> KairoGraph {
        let head = MutableNode(0)
        return KairoGraph("KairoBroad", effectsPerUpdate: 50, setupRuns: 50, update: { head.value = $0 },
                          expectedTotal: { 50 * triangular($0) + 1_275 * $0 }) { bag, effects in
            for i in 0..<50 {
                let current = head.map { $0 &+ i }
                let current2 = current.map { $0 &+ 1 }
                current2.listened(by: bag).withBlock { effects.run($0) }
            }
        }
    }

    /// Five computeds `head + 1`, summed by one computed (a five-input `combine` and a `map`), one effect on the sum:
    /// 1 effect run per update.
    static func diamond() -> KairoGraph {
        let head = MutableNode(0)
        return KairoGraph("KairoDiamond", effectsPerUpdate: 1, setupRuns: 1, update: { head.value = $0 },
                          expectedTotal: { 5 * triangular($0) + 5 * $0 }) { bag, effects in
            let c = (0..<5).map { _ in head.map { $0 &+ 1 } }
            let sum = Node.combine(c[0], c[1], c[2], c[3], c[4]).map { t in t.0 &+ t.1 &+ t.2 &+ t.3 &+ t.4 }
            sum.listened(by: bag).withBlock { effects.run($0) }
        }
    }

    /// A chain head, c1 … c9 (`+ 1` each); one computed sums all ten (a ten-input `combine` and a `map`), one effect
    /// on it: 1 effect run per update. The JS case also creates a c10 that nothing reads, so alien-signals never runs
    /// it; it is not built here (a live Ripple node is pushed to whether or not anything listens).
    static func triangle() -> KairoGraph {
        let head = MutableNode(0)
        return KairoGraph("KairoTriangle", effectsPerUpdate: 1, setupRuns: 1, update: { head.value = $0 },
                          expectedTotal: { 10 * triangular($0) + 45 * $0 }) { bag, effects in
            var list: [Node<Int>] = [head]
            for _ in 1..<10 { list.append(list[list.count - 1].map { $0 &+ 1 }) }
            let sum = Node.combine(list[0], list[1], list[2], list[3], list[4], list[5], list[6], list[7], list[8],
                                   list[9])
                .map { t in t.0 &+ t.1 &+ t.2 &+ t.3 &+ t.4 &+ t.5 &+ t.6 &+ t.7 &+ t.8 &+ t.9 }
            sum.listened(by: bag).withBlock { effects.run($0) }
        }
    }

    /// A computed reads the same head 30 times (a `map` that adds the value 30 times: a Ripple node has no
    /// dependency list to repeat), one effect: 1 effect run per update.
    static func repeated() -> KairoGraph {
        let head = MutableNode(0)
        return KairoGraph("KairoRepeated", effectsPerUpdate: 1, setupRuns: 1, update: { head.value = $0 },
                          expectedTotal: { 30 * triangular($0) }) { bag, effects in
            let current = head.map { value in
                var result = 0
                for _ in 0..<30 { result &+= value }
                return result
            }
            current.listened(by: bag).withBlock { effects.run($0) }
        }
    }

    /// `double = head * 2`, `inverse = -head`, and a computed that adds, 20 times, `double` when the head is odd and
    /// `inverse` when it is even. JS tracks the branch taken; a Ripple graph is static, so the computed is a
    /// `combine` of all three and a `map`. One effect: 1 effect run per update.
    static func unstable() -> KairoGraph {
        let head = MutableNode(0)
        // Update k gives 40k for odd k, −20k for even k.
        let expected: (Int) -> Int = { n in
            let odd = (n + 1) / 2
            let even = n / 2
            return 40 * odd * odd - 20 * even * (even + 1)
        }
        return KairoGraph("KairoUnstable", effectsPerUpdate: 1, setupRuns: 1, update: { head.value = $0 },
                          expectedTotal: expected) { bag, effects in
            let double = head.map { $0 &* 2 }
            let inverse = head.map { 0 &- $0 }
            let current = Node.combine(head, double, inverse).map { t in
                var result = 0
                for _ in 0..<20 { result &+= t.0 % 2 != 0 ? t.1 : t.2 }
                return result
            }
            current.listened(by: bag).withBlock { effects.run($0) }
        }
    }

    /// head → computed1 (`head`) → computed2 (always 0) → computed3 (busy, `+ 1`) → computed4 (`+ 2`) → computed5
    /// (`+ 3`) → an effect that is busy. computed2 never changes, so alien-signals stops there: 0 effect runs per
    /// update, and computed5 stays 6.
    static func avoidable() -> KairoGraph {
        let head = MutableNode(0)
        let graph = KairoGraph("KairoAvoidable", effectsPerUpdate: 0, setupRuns: 1, update: { head.value = $0 },
                               expectedTotal: { _ in 0 }) { bag, effects in
            let computed1 = head.map { $0 }
            // alien-signals cuts here: computed2 recomputes 0, equal to its old value.
            let computed2 = computed1.map { _ in 0 }.distinctUntilChanged()
            let computed3 = computed2.map { value in
                kairoBusy()
                return value &+ 1
            }
            let computed4 = computed3.map { $0 &+ 2 }
            let computed5 = computed4.map { $0 &+ 3 }
            computed5.listened(by: bag).withBlock { value in
                effects.run(value)
                kairoBusy()
            }
        }
        if graph.effects.last != 6 {
            fatalError("KairoAvoidable: the effect saw \(graph.effects.last) at setup; the JS case asserts 6")
        }
        return graph
    }

    /// 100 heads; one computed reads them all into a collection (a 100-input `combine` and a `map` to an array, as
    /// the JS case builds an object); for each index a computed `mux[index]` and a computed `+ 1`, each `+ 1` with an
    /// effect. Update k writes k to head k mod 10 (the JS case writes heads 0…9): every `mux[index]` recomputes,
    /// one changes, so 1 effect run per update.
    static func mux() -> KairoGraph {
        let h = (0..<100).map { _ in MutableNode(0) }
        return KairoGraph("KairoMux", effectsPerUpdate: 1, setupRuns: 100, update: { h[$0 % 10].value = $0 },
                          expectedTotal: { triangular($0) + $0 }) { bag, effects in
            let mux = Node.combine(
                h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8], h[9], h[10], h[11], h[12], h[13], h[14], h[15],
                h[16], h[17], h[18], h[19], h[20], h[21], h[22], h[23], h[24], h[25], h[26], h[27], h[28], h[29], h[30],
                h[31], h[32], h[33], h[34], h[35], h[36], h[37], h[38], h[39], h[40], h[41], h[42], h[43], h[44], h[45],
                h[46], h[47], h[48], h[49], h[50], h[51], h[52], h[53], h[54], h[55], h[56], h[57], h[58], h[59], h[60],
                h[61], h[62], h[63], h[64], h[65], h[66], h[67], h[68], h[69], h[70], h[71], h[72], h[73], h[74], h[75],
                h[76], h[77], h[78], h[79], h[80], h[81], h[82], h[83], h[84], h[85], h[86], h[87], h[88], h[89], h[90],
                h[91], h[92], h[93], h[94], h[95], h[96], h[97], h[98], h[99]
            )
            .map { t -> [Int] in
                [
                    t.0, t.1, t.2, t.3, t.4, t.5, t.6, t.7, t.8, t.9, t.10, t.11, t.12, t.13, t.14, t.15, t.16, t.17,
                    t.18, t.19, t.20, t.21, t.22, t.23, t.24, t.25, t.26, t.27, t.28, t.29, t.30, t.31, t.32, t.33,
                    t.34, t.35, t.36, t.37, t.38, t.39, t.40, t.41, t.42, t.43, t.44, t.45, t.46, t.47, t.48, t.49,
                    t.50, t.51, t.52, t.53, t.54, t.55, t.56, t.57, t.58, t.59, t.60, t.61, t.62, t.63, t.64, t.65,
                    t.66, t.67, t.68, t.69, t.70, t.71, t.72, t.73, t.74, t.75, t.76, t.77, t.78, t.79, t.80, t.81,
                    t.82, t.83, t.84, t.85, t.86, t.87, t.88, t.89, t.90, t.91, t.92, t.93, t.94, t.95, t.96, t.97,
                    t.98, t.99
                ]
            }
            for index in 0..<100 {
                // alien-signals cuts here: `mux[index]` recomputes its old value unless head `index` changed.
                let element = mux.map { $0[index] }.distinctUntilChanged()
                element.map { $0 &+ 1 }.listened(by: bag).withBlock { effects.run($0) }
            }
        }
    }
}
