// swift-tools-version:6.0
import PackageDescription

// Module graph (data flows one way):
//   citypack → CityPackCLI → CityPackCompiler → {Ingest, Validate, Emit}
//   every stage → CityPackModel → CityPackDiagnostics
//   CityPackFormat (pack format, proximity index, shared primitives; imports nothing of ours) is shared by every
//   module above it and by CityPackKit (the app-side reader).
let package = Package(
    name: "CityPack",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .executable(name: "citypack", targets: ["citypack"]),
        // A tiny C spawner `citypack bench` measures other programs through (their own peak RSS; see its source).
        .executable(name: "citypack-rusage", targets: ["citypack-rusage"]),
        .library(name: "CityPackKit", targets: ["CityPackKit"]),
        // The parsers, for the libFuzzer targets in Fuzz/ (a separate package that depends on this one by path).
        .library(name: "CityPackIngest", targets: ["CityPackIngest", "CityPackDiagnostics", "CityPackModel"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // System libraries (Debian: libxml2-dev, zlib1g-dev, libsqlite3-dev).
        .systemLibrary(name: "CCityPackXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CCityPackZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CCityPackSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),

        .target(name: "CityPackDiagnostics", dependencies: ["CityPackFormat"]),
        .target(name: "CityPackModel", dependencies: ["CityPackDiagnostics", "CityPackFormat"]),
        .target(
            name: "CityPackFormat",
            dependencies: ["CCityPackSQLite", "CCityPackZlib", .product(name: "Crypto", package: "swift-crypto")]),
        .target(
            name: "CityPackIngest",
            dependencies: [
                "CityPackModel", "CityPackDiagnostics", "CityPackFormat", "CCityPackXML2", "CCityPackZlib",
                .product(name: "Yams", package: "Yams"),
            ],
            // The SAX callbacks and CSV scanner are the hot paths: skip dynamic exclusivity checks in release
            // builds (measured ~3 % of a Liechtenstein build in swift_beginAccess). Debug builds keep them.
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]),
        .target(name: "CityPackValidate", dependencies: ["CityPackModel", "CityPackDiagnostics", "CityPackFormat"]),
        .target(
            name: "CityPackEmit",
            dependencies: [
                "CityPackModel", "CityPackFormat", "CityPackDiagnostics",
                "CCityPackSQLite", "CCityPackZlib",
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .target(
            name: "CityPackKit",
            dependencies: [
                "CityPackFormat", "CCityPackSQLite", "CCityPackZlib",
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .target(
            name: "CityPackCompiler",
            dependencies: [
                "CityPackDiagnostics", "CityPackModel", "CityPackIngest", "CityPackValidate",
                "CityPackEmit", "CityPackFormat", "CCityPackZlib",
            ]),
        .target(
            name: "CityPackCLI",
            dependencies: [
                "CityPackCompiler", "CityPackKit", "CityPackDiagnostics", "CityPackModel", "CityPackIngest",
                "CCityPackZlib",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(name: "citypack", dependencies: ["CityPackCLI"]),
        .executableTarget(name: "citypack-rusage"),

        .target(name: "CityPackTestSupport", dependencies: ["CityPackDiagnostics", "CCityPackZlib"], path: "Tests/CityPackTestSupport"),
        .testTarget(name: "CityPackDiagnosticsTests", dependencies: ["CityPackDiagnostics", "CityPackTestSupport"]),
        .testTarget(name: "CityPackIngestTests", dependencies: ["CityPackIngest", "CityPackModel", "CityPackTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "CityPackValidateTests", dependencies: ["CityPackValidate", "CityPackModel", "CityPackIngest", "CityPackCompiler", "CityPackTestSupport"]),
        .testTarget(name: "CityPackFormatTests", dependencies: ["CityPackFormat", "CityPackTestSupport"]),
        .testTarget(name: "CityPackModelTests", dependencies: ["CityPackModel", "CityPackTestSupport"]),
        .testTarget(name: "CityPackEmitTests", dependencies: ["CityPackEmit", "CityPackKit", "CityPackFormat", "CityPackModel", "CityPackIngest", "CityPackDiagnostics", "CityPackTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "CityPackKitTests", dependencies: ["CityPackKit", "CityPackEmit", "CityPackCompiler", "CityPackFormat", "CityPackModel", "CityPackTestSupport"]),
        .testTarget(name: "CityPackCLITests", dependencies: ["CityPackCLI", "CityPackKit", "CityPackFormat", "CityPackTestSupport"]),
        .testTarget(name: "CityPackCompilerTests", dependencies: ["CityPackCompiler", "CityPackDiagnostics", "CityPackModel", "CityPackTestSupport", "CCityPackSQLite"], exclude: ["Golden"]),
    ],
    swiftLanguageModes: [.v6]
)
