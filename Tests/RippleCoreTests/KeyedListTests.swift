import RippleCore
import Testing

@Suite("KeyedList")
struct KeyedListTests {
    /// Appends, removals (present, already removed, of a member removed by `removeAll`) and reads in a seeded random
    /// order give what a plain array would, through every compaction.
    @Test func anyMixMatchesAPlainArray() {
        var list = KeyedList<Int>()
        var model: [(key: KeyedList<Int>.Key, value: Int)] = []
        var stale: [KeyedList<Int>.Key] = []
        var seed: UInt64 = 0xC0FFEE
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        var mismatches: [String] = []
        for step in 0..<20_000 {
            switch next(10) {
            case 0...3:
                model.append((list.append(step), step))
            case 4...6 where !model.isEmpty:
                let (key, value) = model.remove(at: next(model.count))
                if list.remove(key) != value { mismatches.append("remove at \(step)") }
                stale.append(key)
            case 7 where !stale.isEmpty:
                if list.remove(stale[next(stale.count)]) != nil { mismatches.append("stale remove at \(step)") }
            case 8:
                if list.elements != model.map(\.value) || list.count != model.count {
                    mismatches.append("read at \(step)")
                }
            case 9 where next(50) == 0:
                if list.removeAll() != model.map(\.value) { mismatches.append("removeAll at \(step)") }
                stale += model.map(\.key)
                model = []
            default:
                break
            }
        }
        #expect(mismatches.count == 0, "first: \(mismatches.prefix(5))")
        #expect(list.elements == model.map(\.value))
        #expect(list.isEmpty == model.isEmpty)
    }

    @Test func removingEveryMemberInAnyOrderLeavesTheRestInOrder() {
        for order in ["first first", "last first", "odd then even"] {
            var list = KeyedList<Int>()
            let keys = (0..<1_000).map { list.append($0) }
            let removalOrder: [Int] = switch order {
            case "first first": Array(0..<1_000)
            case "last first": Array((0..<1_000).reversed())
            default: Array(stride(from: 1, to: 1_000, by: 2)) + Array(stride(from: 0, to: 1_000, by: 2))
            }
            var left = Array(0..<1_000)
            for (done, index) in removalOrder.enumerated() {
                #expect(list.remove(keys[index]) == index)
                left.removeAll { $0 == index }
                if done % 97 == 0 { #expect(list.elements == left, "\(order) after \(done + 1)") }
            }
            #expect(list.isEmpty)
            #expect(list.remove(keys[0]) == nil)
        }
    }
}
