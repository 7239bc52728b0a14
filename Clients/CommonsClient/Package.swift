// swift-tools-version: 6.1
import PackageDescription

/// Strict concurrency is the default in Swift 6 language mode; this keeps the rest honest.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

/// The Commons SDK for apps, a package of its own so that an app depends on it alone: no
/// server module, no package besides Foundation. The server's root package uses it by path.
let package = Package(
    name: "CommonsClient",
    // The oldest systems an app may still support; nothing newer may be used without a check.
    platforms: [.iOS(.v16), .macOS(.v13)],
    products: [
        .library(name: "CommonsClient", targets: ["CommonsClient"]),
        .library(name: "CommonsAPI", targets: ["CommonsAPI"]),
        .library(name: "Backoff", targets: ["Backoff"]),
    ],
    targets: [
        // Capped exponential back-off with jitter: the retry policy of the SDK and of the server.
        .target(name: "Backoff", swiftSettings: strict),
        // The API's wire shapes, Foundation only: what the services encode and the SDK decodes.
        .target(name: "CommonsAPI", swiftSettings: strict),
        .target(name: "CommonsClient", dependencies: ["Backoff", "CommonsAPI"], swiftSettings: strict),
        .testTarget(name: "BackoffTests", dependencies: ["Backoff"], swiftSettings: strict),
        .testTarget(name: "CommonsClientTests", dependencies: ["CommonsClient"], swiftSettings: strict),
    ]
)
