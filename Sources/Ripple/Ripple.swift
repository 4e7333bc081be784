// The umbrella: `import Ripple` brings every room, plus the bridges between them (Sources/Ripple/Bridges).
@_exported import RippleCore
@_exported import RippleLifecycle
@_exported import RippleNodes
@_exported import RipplePipeline
@_exported import RipplePipes
@_exported import RippleSignals
