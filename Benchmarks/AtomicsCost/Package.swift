// swift-tools-version: 6.2
import PackageDescription

// A measurement for issue 18, not part of the benchmark suite: see Sources/AtomicsCost/main.swift.
let package = Package(
    name: "AtomicsCost",
    platforms: [.macOS(.v15)],
    dependencies: [.package(url: "https://github.com/apple/swift-atomics", exact: "1.3.0")],
    targets: [
        .executableTarget(name: "AtomicsCost", dependencies: [.product(name: "Atomics", package: "swift-atomics")])
    ],
    swiftLanguageModes: [.v6]
)
