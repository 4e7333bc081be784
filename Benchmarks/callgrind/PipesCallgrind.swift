// Callgrind harness for the RipplePipes rows of BENCHMARKS.md, with the same workload shapes as
// Benchmarks/Benchmarks/RippleBenchmarks/PipesBenchmarks.swift. `PipesCallgrind <workload> <units>` builds the
// workload's pipes, then makes `units` calls. Instructions per call = (Ir at 2N − Ir at N) ÷ N, so setup cancels out.
// Build against a release build:
//   RIPPLE_WITHOUT_ACTION_PROTOCOL=1 swift build -c release --target RipplePipes
//   swiftc -O -parse-as-library -I .build/release/Modules Benchmarks/callgrind/PipesCallgrind.swift \
//     .build/release/{RipplePipes,RippleCore,DequeModule,InternalCollectionsUtilities}.build/*.o -o /tmp/pipes-cg
//   valgrind --tool=callgrind --callgrind-out-file=/dev/null /tmp/pipes-cg ActionPipe10 20000
// Workloads: ActionPipe1 (one action on one pipe), ActionPipe10 (10 pipes, 5 with the action, called from the tail),
// DirectCall (the protocol method call a pipe stands in for).
#if canImport(Glibc)
import Glibc
#endif
import RipplePipes

final class Sum: @unchecked Sendable {
    // No dynamic exclusivity check (~80 instructions per access), which would swamp the rows.
    @exclusivity(unchecked) var value = 0
}

struct BenchmarkActions: Sendable {
    var add = ActionKey<Int, Int>("add:")
}

protocol DirectTarget: AnyObject {
    func add(_ value: Int) -> Int
}

final class DirectAdder: DirectTarget {
    let sum: Sum
    init(_ sum: Sum) { self.sum = sum }
    func add(_ value: Int) -> Int {
        sum.value &+= value
        return sum.value
    }
}

/// Never chosen: with a single conformer the optimiser would devirtualise the call and fold the loop.
final class DirectSubtractor: DirectTarget {
    let sum: Sum
    init(_ sum: Sum) { self.sum = sum }
    func add(_ value: Int) -> Int {
        sum.value &-= value
        return sum.value
    }
}

@inline(never)
func makeDirectTarget(_ sum: Sum) -> any DirectTarget {
    CommandLine.arguments.contains("--never-given-subtract") ? DirectSubtractor(sum) : DirectAdder(sum)
}

/// `pipes` pipes chained in order, every `registeredEvery`-th one (from the first) with an `add` action; returns the
/// tail, so a call goes through the whole chain from its head.
@inline(never)
func makePipeChain(pipes: Int, registeredEvery: Int, _ sum: Sum) -> ActionPipe<BenchmarkActions> {
    let chain = (0..<pipes).map { _ in ActionPipe(BenchmarkActions()) }
    for (index, pipe) in chain.enumerated() where index % registeredEvery == 0 {
        pipe.registerAction(\.add).action { _, value in
            sum.value &+= value
            return sum.value
        }
    }
    for index in chain.indices.dropFirst() {
        chain[index - 1].addPipe(chain[index])
    }
    return chain[chain.count - 1]
}

func callPipe(_ n: Int, pipes: Int, registeredEvery: Int) -> Int {
    let sum = Sum()
    let pipe = makePipeChain(pipes: pipes, registeredEvery: registeredEvery, sum)
    for _ in 0..<n { _ = pipe.add(1) }
    return sum.value
}

func callDirect(_ n: Int) -> Int {
    let sum = Sum()
    let target = makeDirectTarget(sum)
    for _ in 0..<n { _ = target.add(1) }
    return sum.value
}

@main
struct PipesCallgrind {
    static func main() {
        let arguments = CommandLine.arguments
        let name = arguments[1]
        let n = arguments.count > 2 ? Int(arguments[2])! : 1000
        let result: Int
        switch name {
        case "ActionPipe1": result = callPipe(n, pipes: 1, registeredEvery: 1)
        case "ActionPipe10": result = callPipe(n, pipes: 10, registeredEvery: 2)
        case "DirectCall": result = callDirect(n)
        default:
            print("unknown workload \(name)")
            exit(2)
        }
        print(name, n, result)
    }
}
