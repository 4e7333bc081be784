// What replacing `Synchronization.Atomic` (macOS 15 / iOS 18) with swift-atomics 1.3 would cost Ripple, in
// callgrind instructions per operation (issue 18). Run by hand:
//
//   swift build -c release --package-path Benchmarks/AtomicsCost
//   strip -o /tmp/AtomicsCost Benchmarks/AtomicsCost/.build/release/AtomicsCost   # valgrind 3.19 rejects its DWARF
//   valgrind --tool=callgrind --callgrind-out-file=/dev/null /tmp/AtomicsCost sync.lockpair 100000   # then 200000
//
// Per operation = (Ir at 200,000 − Ir at 100,000) / 100,000, loop included. Swift 6.3.1, Linux x86_64:
//
//   operation                          Atomic (inline)   UnsafeAtomic   ManagedAtomic
//   load(.acquiring)                         2.5              2.5            10
//   store(.releasing)                        2.4              2.4            11
//   compareExchange(.acquiringAndReleasing)  7                7              16
//   wrappingAdd / wrappingIncrement(.relaxed) 1.25            1.25            9
//   RawLock's pair (acquiring CAS + releasing store)  6.5    10             27
//   create + free an object owning one      224              436           704
//
// `UnsafeAtomic` costs what the inline `Atomic` does once its pointer is in a register (one more dependent load
// otherwise: the lock pair's +3.5) but needs its own allocation; `ManagedAtomic` is a second object too and calls its
// `_ptr` getter out of line on every operation (5 instructions and a call, not inlined across modules).

import Atomics
import Synchronization

// Holders shaped as Ripple stores its atomics: a field of a class.
final class SyncHolder { let a = Synchronization.Atomic<Int>(0) }
final class ManagedHolder { let a = ManagedAtomic<Int>(0) }
final class UnsafeHolder {
    let a = UnsafeAtomic<Int>.create(0)
    deinit { a.destroy() }
}

@inline(never) func opaque<T>(_ x: T) -> T { x }

let args = CommandLine.arguments
let workload = args[1]
let n = Int(args[2])!
var acc = 0
let s = opaque(SyncHolder()), m = opaque(ManagedHolder()), u = opaque(UnsafeHolder())

switch workload {
case "empty": for i in 0..<n { acc &+= opaque(i) & 0 }
case "sync.load": for _ in 0..<n { acc &+= s.a.load(ordering: .acquiring) }
case "managed.load": for _ in 0..<n { acc &+= m.a.load(ordering: .acquiring) }
case "unsafe.load": for _ in 0..<n { acc &+= u.a.load(ordering: .acquiring) }
case "sync.store": for i in 0..<n { s.a.store(i, ordering: .releasing) }
case "managed.store": for i in 0..<n { m.a.store(i, ordering: .releasing) }
case "unsafe.store": for i in 0..<n { u.a.store(i, ordering: .releasing) }
case "sync.cas":
    for i in 0..<n {
        if s.a.compareExchange(expected: i, desired: i &+ 1, ordering: .acquiringAndReleasing).exchanged { acc &+= 1 }
    }
case "managed.cas":
    for i in 0..<n {
        if m.a.compareExchange(expected: i, desired: i &+ 1, ordering: .acquiringAndReleasing).exchanged { acc &+= 1 }
    }
case "unsafe.cas":
    for i in 0..<n {
        if u.a.compareExchange(expected: i, desired: i &+ 1, ordering: .acquiringAndReleasing).exchanged { acc &+= 1 }
    }
case "sync.inc": for _ in 0..<n { s.a.wrappingAdd(1, ordering: .relaxed) }
case "managed.inc": for _ in 0..<n { m.a.wrappingIncrement(ordering: .relaxed) }
case "unsafe.inc": for _ in 0..<n { u.a.wrappingIncrement(ordering: .relaxed) }
// RawLock's pattern: take with an acquiring compare-exchange, give back with a releasing store.
case "sync.lockpair":
    for _ in 0..<n {
        if s.a.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged { acc &+= 1 }
        s.a.store(0, ordering: .releasing)
    }
case "managed.lockpair":
    for _ in 0..<n {
        if m.a.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged { acc &+= 1 }
        m.a.store(0, ordering: .releasing)
    }
case "unsafe.lockpair":
    for _ in 0..<n {
        if u.a.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged { acc &+= 1 }
        u.a.store(0, ordering: .releasing)
    }
// Creating an object that owns one atomic (a node, an edge, a subscription): inline field vs a second object.
case "sync.create": for _ in 0..<n { acc &+= opaque(SyncHolder()).a.load(ordering: .relaxed) }
case "managed.create": for _ in 0..<n { acc &+= opaque(ManagedHolder()).a.load(ordering: .relaxed) }
case "unsafe.create": for _ in 0..<n { acc &+= opaque(UnsafeHolder()).a.load(ordering: .relaxed) }
default: fatalError(workload)
}
print(workload, acc)
