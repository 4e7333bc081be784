// swift-tools-version: 6.1
import PackageDescription

// Ripple: one module per seed library ("room"), all standing on RippleCore.
// A room never imports a sibling; only the umbrella `Ripple`, `RippleTesting` and the tour see several rooms.
let package = Package(
    name: "Ripple",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    products: [
        .library(name: "RippleCore", targets: ["RippleCore"]),
        .library(name: "RippleTesting", targets: ["RippleTesting"]),
        .library(name: "RippleSignals", targets: ["RippleSignals"]),
        .executable(name: "ripple-tour", targets: ["RippleTour"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(name: "RippleCore"),
        .target(name: "RippleTesting", dependencies: ["RippleCore"]),
        .target(name: "RippleSignals", dependencies: ["RippleCore"]),
        .executableTarget(name: "RippleTour", dependencies: ["RippleCore", "RippleSignals"]),
        .testTarget(name: "RippleCoreTests", dependencies: ["RippleCore", "RippleTesting"]),
        .testTarget(name: "RippleTestingTests", dependencies: ["RippleTesting", "RippleCore"]),
        .testTarget(name: "RippleSignalsTests", dependencies: ["RippleSignals", "RippleCore", "RippleTesting"]),
    ],
    swiftLanguageModes: [.v6]
)
