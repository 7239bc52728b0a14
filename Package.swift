// swift-tools-version: 6.1
import PackageDescription

/// Strict concurrency is the default in Swift 6 language mode; these keep the rest of our code honest.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

/// The three targets of a service (docs/development.md, "Conventions"): `Services/<Module>/Domain`, a pure library
/// that cannot import the server stack (it takes the API's request types as its commands);
/// `Services/<Module>/Service`, the service on
/// ServiceKit; and `Services/<Module>/Main`, a few-line executable named `executable`.
func serviceTargets(
    _ module: String, executable: String,
    domain domainDependencies: [Target.Dependency] = [], service serviceDependencies: [Target.Dependency] = []
) -> [Target] {
    [
        .target(
            name: "\(module)Domain",
            dependencies: ["Codecs", .product(name: "CommonsAPI", package: "CommonsClient")] + domainDependencies,
            path: "Services/\(module)/Domain",
            swiftSettings: strict
        ),
        .target(
            name: "\(module)Service",
            dependencies: [
                .byName(name: "\(module)Domain"), "ServiceKit", "ReadModel", "Contracts", "EventLog", "Codecs",
                .product(name: "CommonsAPI", package: "CommonsClient"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ] + serviceDependencies,
            path: "Services/\(module)/Service",
            swiftSettings: strict
        ),
        .executableTarget(
            name: executable, dependencies: [.byName(name: "\(module)Service"), "ServiceKit"], path: "Services/\(module)/Main",
            swiftSettings: strict
        ),
    ]
}

// The shared layers, lowest first: the event log and pure codecs, its two backends, the
// events, read models, photos, and the kit every service is built on.
let shared: [Target] = [
    // The event log: API, envelopes, checkpoints, the shared subscription loop. Foundation only.
    .target(
        name: "EventLog",
        path: "Shared/EventLog",
        swiftSettings: strict
    ),
    // One codec per concern, pure: base64url, name-based ids, opaque page cursors.
    .target(
        name: "Codecs",
        dependencies: [
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "ExtrasBase64", package: "swift-extras-base64"),
        ],
        path: "Shared/Codecs",
        swiftSettings: strict
    ),
    // Starting child processes without Foundation's Process (see ForkExec for why).
    .target(name: "Spawn", path: "Shared/Spawn", swiftSettings: strict),
    // Points on the Earth: validated coordinates, geodesic distances, and the approximate
    // public location that hides where someone lives. Pure; shared by every service that maps.
    .target(name: "Geo", path: "Shared/Geo", swiftSettings: strict),
    .target(
        name: "EventLogPostgres",
        dependencies: [
            "EventLog", .product(name: "Backoff", package: "CommonsClient"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "Logging", package: "swift-log"),
        ],
        path: "Shared/EventLogPostgres",
        swiftSettings: strict
    ),
    // libpq, PostgreSQL's own client library (Debian's libpq-dev), as pgbench uses it.
    .systemLibrary(name: "CLibPQ", path: "Shared/CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
    // The PostgreSQL event store on libpq, beside the PostgresNIO one: the same log, statements and migrations.
    .target(
        name: "EventLogLibPQ",
        dependencies: ["EventLog", "EventLogPostgres", "CLibPQ", .product(name: "Logging", package: "swift-log")],
        path: "Shared/EventLogLibPQ",
        swiftSettings: strict
    ),
    .target(
        name: "EventLogSQLite",
        dependencies: [
            "EventLog", "Codecs", .product(name: "Backoff", package: "CommonsClient"),
            .product(name: "GRDB", package: "GRDB.swift"),
        ],
        path: "Shared/EventLogSQLite",
        swiftSettings: strict
    ),
    // Every event type of every service, with stored names, schema versions and upcasters.
    .target(
        name: "Contracts",
        dependencies: ["EventLog", "Codecs", .product(name: "CommonsAPI", package: "CommonsClient")],
        path: "Shared/Contracts",
        swiftSettings: strict
    ),
    // Projections into SQLite read models: checkpoint in the same transaction, parking, rebuild and swap.
    .target(
        name: "ReadModel",
        dependencies: [
            "EventLog", "Contracts", "Codecs", .product(name: "Backoff", package: "CommonsClient"),
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "GRDBSQLite", package: "GRDB.swift"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Tracing", package: "swift-distributed-tracing"),
        ],
        path: "Shared/ReadModel",
        swiftSettings: strict
    ),
    // libvips (Debian's libvips-dev): decoding, cleaning and resizing photos. Its pkg-config
    // entry adds `-pthread`, which SwiftPM warns about; GLib's gives the same include paths.
    .systemLibrary(name: "CVips", path: "Shared/CVips", pkgConfig: "gobject-2.0", providers: [.apt(["libvips-dev"])]),
    // The few libvips calls Swift cannot make itself (C functions that take `...`).
    .target(
        name: "CPhotoCodec", dependencies: ["CVips"], path: "Shared/CPhotoCodec",
        linkerSettings: [.linkedLibrary("vips"), .linkedLibrary("gobject-2.0"), .linkedLibrary("glib-2.0")]
    ),
    // Photos made safe to serve: upright, sRGB, no metadata, in feed sizes. No server code.
    .target(name: "PhotoCodec", dependencies: ["CPhotoCodec"], path: "Shared/PhotoCodec", swiftSettings: strict),
    // What every service shares: configuration, app assembly, problem documents, auth,
    // idempotency, read-your-writes, health, metrics and the OpenAPI document.
    .target(
        name: "ServiceKit",
        dependencies: [
            "EventLog", "EventLogPostgres", "EventLogSQLite", "ReadModel", "Contracts", .product(name: "Backoff", package: "CommonsClient"), "Codecs",
            .product(name: "CommonsAPI", package: "CommonsClient"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "JWTKit", package: "jwt-kit"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Tracing", package: "swift-distributed-tracing"),
            .product(name: "OTel", package: "swift-otel"),
        ],
        path: "Shared/ServiceKit",
        swiftSettings: strict
    ),
]

// The five services (docs/development.md), by port.
let services: [Target] =
    // accounts (port 8081)
    serviceTargets(
        "Accounts", executable: "accounts", domain: ["Contracts", "EventLog"],
        service: [
            .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
            .product(name: "JWTKit", package: "jwt-kit"),
            .product(name: "Crypto", package: "swift-crypto"),
        ])
    // listings (port 8082)
    + serviceTargets(
        "Listings", executable: "listings", domain: ["Contracts", "EventLog", "Geo"],
        service: [
            "Geo", "PhotoCodec", .product(name: "Crypto", package: "swift-crypto"),
        ])
    // geo-search (port 8083)
    + serviceTargets("GeoSearch", executable: "geo-search", domain: ["Geo"], service: ["Geo"])
    // donations (port 8084)
    + serviceTargets(
        "Donations", executable: "donations", domain: ["Contracts", "EventLog", "Geo"],
        service: [
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"),
        ])
    // shopping-lists (port 8085)
    + serviceTargets(
        "ShoppingLists", executable: "shopping-lists", domain: ["Contracts", "EventLog", "Geo"],
        service: [
            "Geo", .product(name: "Crypto", package: "swift-crypto"),
        ])

// The `commons` CLI and what it is built from: the stack table, the test topology, benchmarks.
let tools: [Target] = [
    // The stack's services, ports and path prefixes, shared by `commons up` and its tests.
    .target(
        name: "StackKit",
        path: "Tools/StackKit",
        swiftSettings: strict
    ),
    // The compose topology started from Swift (service binaries, nginx, PostgreSQL): for the
    // end-to-end suite and `commons bench topology`.
    .target(
        name: "TopologyKit", dependencies: [.product(name: "CommonsClient", package: "CommonsClient"), "Spawn", "EventLogTestSupport"],
        path: "Tools/TopologyKit", swiftSettings: strict),
    // The benchmark drivers `commons bench` runs: each drives a service's command path
    // beside the raw operation it is built on, from outside the service modules (whose
    // `package` symbols it uses), so no service executable carries benchmark code.
    .target(
        name: "CommonsBench",
        dependencies: [
            "AccountsService", "AccountsDomain", "DonationsService", "DonationsDomain", "GeoSearchService", "GeoSearchDomain",
            "ListingsService", "ListingsDomain", "ShoppingListsService", "ShoppingListsDomain",
            "ServiceKit", "ReadModel", "Contracts", "EventLog", "Geo",
            .product(name: "CommonsAPI", package: "CommonsClient"),
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
            .product(name: "Logging", package: "swift-log"),
        ],
        path: "Tools/CommonsBench",
        swiftSettings: strict
    ),
    .executableTarget(
        name: "commons",
        dependencies: [
            "CommonsBench", "Codecs", .product(name: "CommonsAPI", package: "CommonsClient"),
            "StackKit", "Spawn", "TopologyKit", .product(name: "Backoff", package: "CommonsClient"), "EventLog", "EventLogPostgres", "EventLogLibPQ",
            "EventLogSQLite",
            "ReadModel", "ServiceKit", "Contracts", "AccountsService",
            "GeoSearchService", "DonationsService", "ShoppingListsService", "ListingsService",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Tracing", package: "swift-distributed-tracing"),
            "PhotoCodec",
        ],
        path: "Tools/commons",
        swiftSettings: strict
    ),
]

// What the tests share: fresh logs on both backends, real photo tools, harness helpers, and a
// projector the crash test runs as a child process.
let testSupport: [Target] = [
    // Fresh logs on both backends for every test target that needs one.
    .target(
        name: "EventLogTestSupport",
        dependencies: [
            "EventLog", "EventLogPostgres", "EventLogLibPQ", "EventLogSQLite", "Spawn",
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "GRDB", package: "GRDB.swift"),
        ],
        path: "Tests/EventLogTestSupport",
        swiftSettings: strict
    ),
    // Real photo tools (exiftool, heif-enc) for the tests of every target that handles photos.
    .target(name: "PhotoTestSupport", dependencies: ["PhotoCodec", "Spawn"], path: "Tests/PhotoTestSupport", swiftSettings: strict),
    // What the service test harnesses share: answers as tests read them.
    .target(
        name: "ServiceTestSupport",
        dependencies: [
            "ServiceKit", "ReadModel", "Contracts", "EventLog", .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "GRDB", package: "GRDB.swift"), .product(name: "AsyncHTTPClient", package: "async-http-client"),
        ],
        path: "Tests/ServiceTestSupport",
        swiftSettings: strict
    ),
    // A projector that the crash test runs as a child process and kills with SIGKILL.
    .executableTarget(
        name: "commons-test-projector",
        dependencies: [
            "EventLog", "EventLogSQLite", "ReadModel",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Logging", package: "swift-log"),
        ],
        path: "Tests/TestProjector",
        swiftSettings: strict
    ),
]

// One test target per library, then the CLI's process tests and the end-to-end suite.
let tests: [Target] = [
    .testTarget(name: "CodecsTests", dependencies: ["Codecs"], path: "Tests/CodecsTests", swiftSettings: strict),
    .testTarget(
        name: "EventLogTests",
        dependencies: ["EventLog", "EventLogPostgres", "EventLogSQLite", "EventLogTestSupport"],
        path: "Tests/EventLogTests",
        swiftSettings: strict
    ),
    .testTarget(
        name: "ContractsTests",
        dependencies: ["EventLog", "Contracts"],
        path: "Tests/ContractsTests",
        swiftSettings: strict
    ),
    .testTarget(
        name: "ReadModelTests",
        dependencies: [
            "EventLog", "EventLogSQLite", "EventLogPostgres", "ReadModel", "Contracts", "EventLogTestSupport", "Spawn",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"),
        ],
        path: "Tests/ReadModelTests",
        swiftSettings: strict
    ),
    .testTarget(name: "PhotoCodecTests", dependencies: ["PhotoCodec", "PhotoTestSupport"], path: "Tests/PhotoCodecTests", swiftSettings: strict),
    .testTarget(
        name: "ServiceKitTests",
        dependencies: [
            "ServiceKit", "ServiceTestSupport", "EventLog", "EventLogPostgres", "EventLogSQLite", "EventLogTestSupport", "ReadModel", "Contracts",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "JWTKit", package: "jwt-kit"),
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdTesting", package: "hummingbird"),
        ],
        path: "Tests/ServiceKitTests",
        swiftSettings: strict
    ),
    .testTarget(
        name: "AccountsTests",
        dependencies: [
            "ServiceTestSupport",
            "AccountsDomain", "AccountsService", "ServiceKit", "EventLog", "EventLogTestSupport", "Contracts",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "JWTKit", package: "jwt-kit"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "GRDB", package: "GRDB.swift"),
        ],
        path: "Tests/AccountsTests",
        swiftSettings: strict
    ),
    .testTarget(
        name: "ListingsDomainTests",
        dependencies: ["ListingsDomain", "Contracts", "EventLog", "Geo"],
        path: "Tests/ListingsDomainTests",
        swiftSettings: strict
    ),
    .testTarget(
        name: "ListingsTests",
        dependencies: [
            "ServiceTestSupport",
            "ListingsService", "ListingsDomain", "Geo", "ServiceKit", "EventLog", "EventLogTestSupport", "Contracts", "PhotoCodec",
            "PhotoTestSupport", "ReadModel", .product(name: "CommonsAPI", package: "CommonsClient"),
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "JWTKit", package: "jwt-kit"),
        ],
        path: "Tests/ListingsTests",
        swiftSettings: strict
    ),
    .testTarget(
        name: "GeoSearchDomainTests",
        dependencies: ["GeoSearchDomain", "Geo"],
        path: "Tests/GeoSearchDomainTests",
        swiftSettings: strict
    ),
    .testTarget(
        name: "GeoSearchTests",
        dependencies: [
            "ServiceTestSupport",
            "GeoSearchService", "GeoSearchDomain", "Geo", "ServiceKit", "EventLog", "EventLogTestSupport", "Contracts", "ReadModel",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "GRDB", package: "GRDB.swift"),
        ],
        path: "Tests/GeoSearchTests",
        swiftSettings: strict
    ),
    .testTarget(
        name: "DonationsDomainTests",
        dependencies: ["DonationsDomain", "Contracts", "EventLog", "Codecs"],
        path: "Tests/DonationsDomainTests",
        swiftSettings: strict
    ),
    .testTarget(
        name: "DonationsTests",
        dependencies: [
            "ServiceTestSupport",
            "DonationsService", "DonationsDomain", "ServiceKit", "EventLog", "EventLogTestSupport", "Contracts",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdTesting", package: "hummingbird"),
        ],
        path: "Tests/DonationsTests",
        swiftSettings: strict
    ),
    .testTarget(
        name: "ShoppingListsDomainTests",
        dependencies: ["ShoppingListsDomain", "Contracts", "EventLog", "Geo"],
        path: "Tests/ShoppingListsDomainTests",
        swiftSettings: strict
    ),
    .testTarget(
        name: "ShoppingListsTests",
        dependencies: [
            "ServiceTestSupport",
            "ShoppingListsService", "ShoppingListsDomain", "ServiceKit", "EventLog", "EventLogTestSupport", "Contracts",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdTesting", package: "hummingbird"),
        ],
        path: "Tests/ShoppingListsTests",
        swiftSettings: strict
    ),
    // Runs the built `commons` binary as a process, on both event-log backends.
    .testTarget(
        name: "CommonsCLITests",
        dependencies: [
            "commons", "EventLog", "EventLogTestSupport", "EventLogPostgres", "EventLogSQLite", "ReadModel", "Contracts", "StackKit", "Spawn",
            "ServiceKit",
            "PhotoCodec",
            .product(name: "CommonsClient", package: "CommonsClient"),
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Hummingbird", package: "hummingbird"),
        ],
        path: "Tests/CommonsCLITests",
        swiftSettings: strict
    ),
    // The whole system through its gateway, driven with CommonsClient as an app would;
    // it starts the service binaries of .build/debug itself (Tests/EndToEndTests/Topology.swift).
    .testTarget(
        name: "EndToEndTests",
        dependencies: [
            .product(name: "CommonsClient", package: "CommonsClient"), "Spawn", "PhotoTestSupport", "EventLogTestSupport", "TopologyKit",
            .product(name: "Crypto", package: "swift-crypto"),
        ],
        path: "Tests/EndToEndTests", swiftSettings: strict),
]

let package = Package(
    name: "commons",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "commons", targets: ["commons"]),
        .executable(name: "accounts", targets: ["accounts"]),
        .executable(name: "geo-search", targets: ["geo-search"]),
        .executable(name: "listings", targets: ["listings"]),
        .executable(name: "donations", targets: ["donations"]),
        .executable(name: "shopping-lists", targets: ["shopping-lists"]),
        .library(name: "EventLog", targets: ["EventLog"]),
    ],
    dependencies: [
        // The SDK for the apps is a package of its own (Foundation only); the server's tests
        // drive the stack through it, and every retry loop shares its Backoff.
        .package(path: "Clients/CommonsClient"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/swift-extras/swift-extras-base64.git", from: "1.2.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        // Traces over OTLP/HTTP only: the gRPC exporter would add grpc-swift to every build.
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
    ],
    targets: shared + services + tools + testSupport + tests,
    swiftLanguageModes: [.v6]
)
