import RippleCore
import RipplePipes
import RippleTesting
import Testing

/// Random chain edits checked against a model (a list of pipe indices per chain): merges of chains built either way,
/// removals that leave empty links behind, compactions and re-adds must keep every call's order and every length.
@Suite struct ChainModelTests {
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func randomEditsMatchTheModel(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let count = 40
        let pipes = (0..<count).map { _ in ActionPipe(CounterActions()) }
        for (index, pipe) in pipes.enumerated() {
            pipe.registerAction(\.name).action { process, _ in
                // Each action appends its pipe's index: the result spells the chain's order.
                (process.upstreamReturn(as: String.self) ?? "") + "\(index),"
            }
        }
        // The model: each pipe's chain, as the list of its members in order (shared by reference through `chainOf`).
        var chains: [[Int]] = (0..<count).map { [$0] }
        var chainOf = Array(0..<count)
        var mismatches: [String] = []
        for step in 0..<4_000 {
            let first = Int.random(in: 0..<count, using: &generator)
            let second = Int.random(in: 0..<count, using: &generator)
            switch Int.random(in: 0..<3, using: &generator) {
            case 0 where chainOf[first] != chainOf[second]:
                pipes[first].addPipe(pipes[second])
                let (into, from) = (chainOf[first], chainOf[second])
                chains[into] += chains[from]
                for member in chains[from] { chainOf[member] = into }
                chains[from] = []
            case 1:
                pipes[first].removeFromChain()
                let old = chainOf[first]
                if chains[old].count > 1 {
                    chains[old].removeAll { $0 == first }
                    let fresh = chains.firstIndex { $0.isEmpty }!
                    chains[fresh] = [first]
                    chainOf[first] = fresh
                }
            default:
                let members = chains[chainOf[first]]
                let length = pipes[first].chainLength
                if length != members.count {
                    mismatches.append("step \(step): pipe \(first) length \(length), model \(members)")
                }
                let expected = members.map { "\($0)," }.joined()
                let got = pipes[first].name("")
                if got != expected {
                    mismatches.append("step \(step): pipe \(first) ran \(got ?? "nothing"), model \(expected)")
                }
            }
        }
        #expect(mismatches.count == 0, "\(mismatches.prefix(3))")
    }
}
