// Combine on Apple platforms; elsewhere OpenCombine (the same API, open source), with the package trait
// `OpenCombine` (without it, off Apple platforms, this module is empty: see Package.swift). Re-exported, so
// `import RippleCombine` is enough to name `Publisher`, `AnyCancellable`, … on either.
#if canImport(Combine)
@_exported import Combine
#elseif OpenCombine
@_exported import OpenCombine
#endif
