// swift-tools-version: 6.1
import PackageDescription

// Benchmarks live in their own package so that users of Ripple never resolve package-benchmark or OpenCombine.
// Run: swift package --package-path Benchmarks --disable-sandbox benchmark
let package = Package(
    name: "RippleBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Ripple", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    ],
    targets: [
        .executableTarget(
            name: "RippleBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "RippleCore", package: "Ripple"),
                .product(name: "RippleSignals", package: "Ripple"),
                .product(name: "RippleNodes", package: "Ripple"),
                .product(name: "RipplePipes", package: "Ripple"),
                .product(name: "RipplePipeline", package: "Ripple"),
            ],
            path: "Benchmarks/RippleBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    ],
    swiftLanguageModes: [.v6]
)
