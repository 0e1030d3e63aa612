// swift-tools-version:6.1
import PackageDescription

// Layers, top to bottom (see ARCHITECTURE.md): hearth → HearthEngine → {HearthGrammar, HearthTime,
// HearthSkills} → HearthStore → HearthDomain. HearthTime and HearthDomain are Foundation-only leaves.
let package = Package(
    name: "Hearth",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "hearth", targets: ["hearth"]),
        .library(name: "HearthEngine", targets: ["HearthEngine"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        // Salted hashes of PINs and invitation tokens (never stored in the clear).
        .package(url: "https://github.com/apple/swift-crypto", exact: "4.5.2"),
        // The Wyoming server (`hearth serve --wyoming`); only the hearth executable links it.
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        // The home service (`hearth serve --http`, issue 35): HTTP on the same SwiftNIO, start-up and
        // graceful shutdown, and the Prometheus text format. swift-configuration is left out (no trait).
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
        // Push by signed webhooks (issue 36): HTTP and HTTPS out to ntfy, Gotify, Home Assistant.
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"])]
        ),
        // Line editing, history and completion for `hearth repl` at a terminal.
        .systemLibrary(
            name: "CEditLine",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]
        ),
        .target(name: "HearthDomain"),
        .target(name: "HearthTime"),
        .target(
            name: "HearthGrammar",
            dependencies: ["CPCRE2", .product(name: "Yams", package: "Yams")]
        ),
        .target(
            name: "HearthStore",
            dependencies: ["HearthDomain", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .target(
            name: "HearthSkills",
            dependencies: ["HearthStore", "HearthDomain", "HearthTime",
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "Crypto", package: "swift-crypto"),
                           // scrypt for PINs (a memory-hard hash: an offline search of 4-digit PINs costs hours).
                           .product(name: "CryptoExtras", package: "swift-crypto")]
        ),
        .target(
            name: "HearthEngine",
            dependencies: ["HearthGrammar", "HearthTime", "HearthSkills", "HearthStore", "HearthDomain",
                           .product(name: "Logging", package: "swift-log")]
        ),
        // The home service's HTTP API (routes, device-token auth, metrics, the in-service scheduler).
        .target(
            name: "HearthService",
            dependencies: ["HearthEngine", "HearthSkills", "HearthStore", "HearthDomain",
                           .product(name: "Hummingbird", package: "hummingbird"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                           .product(name: "Prometheus", package: "swift-prometheus"),
                           .product(name: "AsyncHTTPClient", package: "async-http-client"),
                           .product(name: "Crypto", package: "swift-crypto"),
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "NIOHTTP1", package: "swift-nio")]
        ),
        .executableTarget(
            name: "hearth",
            // The CLI still reads the store and skills for its subcommands (issue 28: one facade is next);
            // every layer it imports is declared, so `scripts/test`'s import check holds it to them.
            dependencies: ["HearthEngine", "HearthService", "HearthSkills", "HearthStore", "HearthDomain", "HearthGrammar", "HearthTime", "CEditLine",
                           .product(name: "ArgumentParser", package: "swift-argument-parser"),
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "NIOPosix", package: "swift-nio")]
        ),
        // Release benchmarks for SPEC §6: swift run -c release hearth-bench
        .executableTarget(name: "hearth-bench", dependencies: ["HearthEngine", "HearthSkills", "HearthStore", "HearthDomain", "HearthGrammar", "HearthTime",
                                                            .product(name: "Logging", package: "swift-log")],
                         path: "Benchmarks/hearth-bench"),
        // Helpers shared by the test targets (the seeded random generator, shared fixtures); no product ships it.
        .target(name: "HearthTestSupport", path: "Tests/HearthTestSupport"),
        .testTarget(name: "HearthDomainTests", dependencies: ["HearthDomain", "HearthTestSupport"]),
        .testTarget(name: "HearthTimeTests", dependencies: ["HearthTime", "HearthTestSupport"]),
        .testTarget(name: "HearthGrammarTests", dependencies: ["HearthGrammar", "HearthTestSupport"]),
        .testTarget(name: "HearthEngineTests", dependencies: ["HearthEngine", "HearthSkills", "HearthStore", "HearthDomain", "HearthGrammar", "HearthTime", "HearthTestSupport",
                                                        .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "HearthCLITests", dependencies: ["hearth", "HearthService", "HearthEngine", "HearthTestSupport", "HearthDomain", "HearthStore", "HearthSkills",
                                                     .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log")]),
    ]
)
