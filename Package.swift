// swift-tools-version: 6.2
import CompilerPluginSupport
import PackageDescription

// Ripple: one module per seed library ("room"), all standing on RippleCore.
// A room never imports a sibling; only the umbrella `Ripple`, `RippleTesting` and the tour see several rooms.
let deque: Target.Dependency = .product(name: "DequeModule", package: "swift-collections")

/// Each room: its module name and what it needs beyond RippleCore.
let rooms: [(name: String, dependencies: [Target.Dependency])] = [
    ("RippleNodes", [deque]),
    ("RippleSignals", []),
    ("RipplePipes", [deque]),
    ("RipplePipeline", []),
    ("RippleLifecycle", []),
]
let roomNames = rooms.map(\.name)

/// `@ActionProtocol` (product RippleActionProtocol) compiles swift-syntax, for the macro and for its expansion tests.
/// CI's release and -Osize passes set RIPPLE_WITHOUT_ACTION_PROTOCOL=1 (a release swift-syntax costs about ten
/// minutes here; the debug and sanitizer passes test the macro), its sanitizer passes
/// RIPPLE_SKIP_MACRO_EXPANSION_TESTS=1 (the debug pass runs them).
let withActionProtocol = Context.environment["RIPPLE_WITHOUT_ACTION_PROTOCOL"] == nil
let withExpansionTests = withActionProtocol && Context.environment["RIPPLE_SKIP_MACRO_EXPANSION_TESTS"] == nil
/// Without the macro, the tour leaves out its `@ActionProtocol` sections and its tests do not look for them.
let withoutActionProtocolSettings: [SwiftSetting] = withActionProtocol ? [] : [.define("RIPPLE_WITHOUT_ACTION_PROTOCOL")]

/// Package traits. `OpenCombine` gives RippleCombine its Combine off Apple platforms; off by default, so a package
/// depending on Ripple resolves OpenCombine only if it asks for it (`traits: ["OpenCombine"]`): SwiftPM 6.3 resolves
/// every package a non-test target uses unless a trait not enabled guards each use (.ci/check-dependents.sh).
let rippleTraits: Set<Trait> = [
    .trait(name: "OpenCombine", description: "RippleCombine on Linux and other non-Apple platforms, over OpenCombine"),
]
/// Combine ships with Apple's platforms; elsewhere RippleCombine builds on OpenCombine, with the trait.
let openCombineOffApple: Target.Dependency = .product(
    name: "OpenCombine", package: "OpenCombine",
    condition: .when(platforms: [.linux, .windows, .android, .wasi, .openbsd], traits: ["OpenCombine"]))

let rippleProducts: [Product] = [
    .library(name: "RippleCore", targets: ["RippleCore"]),
    .library(name: "RippleTesting", targets: ["RippleTesting"]),
    .library(name: "Ripple", targets: ["Ripple"]),
    .executable(name: "ripple-tour", targets: ["RippleTour"]),
    // Signals and nodes as Combine publishers and back; its own product, so `import Ripple` never needs Combine.
    .library(name: "RippleCombine", targets: ["RippleCombine"]),
] + roomNames.map { .library(name: $0, targets: [$0]) }

let rippleTargets: [Target] = [
    .target(name: "RippleCore"),
    // Test sources and recorders for nodes and signals (hot/cold sources, `start(created:subscribed:disposed:)`).
    .target(name: "RippleTesting", dependencies: ["RippleCore", "RippleNodes", "RippleSignals"]),
    .executableTarget(
        name: "RippleTour",
        dependencies: ["RippleCore"] + roomNames.map { .target(name: $0) }
            + (withActionProtocol ? ["RippleActionProtocol"] : []),
        swiftSettings: withoutActionProtocolSettings),
    .testTarget(name: "RippleCoreTests", dependencies: ["RippleCore", "RippleTesting"]),
    .testTarget(
        name: "RippleTestingTests", dependencies: ["RippleTesting", "RippleCore", "RippleNodes", "RippleSignals"]),
    .target(name: "Ripple", dependencies: ["RippleCore"] + roomNames.map { .target(name: $0) }),
    .testTarget(name: "RippleTests", dependencies: ["Ripple", "RippleTesting"]),
    .testTarget(name: "RippleTourTests", dependencies: ["RippleTour"], swiftSettings: withoutActionProtocolSettings),
    .testTarget(
        name: "RippleNamesTests",
        dependencies: ["Ripple", "RippleTesting", .product(name: "OpenCombine", package: "OpenCombine")]),
    .target(
        name: "RippleCombine",
        dependencies: ["Ripple", "RippleCore", "RippleNodes", "RippleSignals", openCombineOffApple]),
    .testTarget(name: "RippleCombineTests", dependencies: ["RippleCombine", "RippleTesting"]),
    .testTarget(
        name: "RippleLeakChecks",
        dependencies: ["RippleCore", "RippleTesting"] + roomNames.map { .target(name: $0) }),
]
    + rooms.map { .target(name: $0.name, dependencies: ["RippleCore"] + $0.dependencies) }
    + roomNames.map {
        .testTarget(name: "\($0)Tests", dependencies: [.target(name: $0), "RippleCore", "RippleTesting"])
    }

let package = Package(
    name: "Ripple",
    // macOS 15 / iOS 18 line: `Synchronization.Atomic`, used on the hot paths, needs it. swift-atomics instead would
    // allow iOS 17, at an allocation per atomic word (measured in Benchmarks/AtomicsCost; see README, Requirements).
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
    products: rippleProducts,
    traits: rippleTraits,
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // RippleCombine's Combine off Apple platforms (with the trait), and the tests' (RippleNamesTests: Ripple's
        // names beside Combine's; RippleCombineTests).
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    ],
    targets: rippleTargets,
    swiftLanguageModes: [.v6]
)

// `@ActionProtocol` on swift-syntax: its own product, so `import Ripple` never builds swift-syntax.
if withActionProtocol {
    package.products.append(.library(name: "RippleActionProtocol", targets: ["RippleActionProtocol"]))
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-syntax", exact: "603.0.1"))
    package.targets += [
        // The expansion is a library, so its tests need not depend on the macro target (a test target that does
        // makes SwiftPM build every test target for the host, where `@testable import RippleTour` fails).
        .target(
            name: "RipplePipesMacroSupport",
            dependencies: [
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
            ]),
        .macro(
            name: "RipplePipesMacros",
            dependencies: [
                "RipplePipesMacroSupport", .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]),
        .target(name: "RippleActionProtocol", dependencies: ["RipplePipes", "RipplePipesMacros"]),
        .testTarget(name: "RippleActionProtocolTests", dependencies: ["RippleActionProtocol", "RippleTesting"]),
    ]
}
// The expansion tests compile swift-syntax a second time (for the tests, beside the macro's own copy).
if withExpansionTests {
    package.targets.append(.testTarget(
        name: "RipplePipesMacroTests",
        dependencies: [
            "RipplePipesMacroSupport",
            .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
            .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
        ]))
}
