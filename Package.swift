// swift-tools-version:6.0
import PackageDescription

// Module graph (data flows one way):
//   citypack → CityPackCLI → CityPackCompiler → {Ingest, Validate, Emit}
//   every stage → CityPackModel → {CityPackDiagnostics, CityPackFormat}
//   CityPackFormat (the pack format: schema, manifest, catalog, signatures, coordinates and bounding boxes, geohash
//   proximity index, sizes, delta, web flavour) is shared by every module above it and by CityPackKit (the
//   app-side reader). It stands on two leaves that import nothing of ours:
//   - CityPackSupport: general helpers in pure Swift (+ swift-crypto for SHA-256): sorted and canonical JSON, the
//     compact JSON encoder, civil dates and times, file digests, the time trace. CityPackDiagnostics needs only
//     this, so the lowest stage module pulls in neither SQLite nor zlib.
//   - CityPackStorage: the wrappers over the C libraries bytes are stored with — SQLite (the pack database) and
//     zlib (ZlibStream: the gzip a pack ships in, PBF blobs, zip entries). Kept apart from CityPackFormat because
//     the readers of inputs (Ingest) and the tooling need them without the pack format's meaning, and apart from
//     CityPackSupport because they link C libraries.
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
        // The HTTP server of `citypack preview` (loopback only): small, pure Swift, no SwiftNIO.
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    ],
    targets: [
        // System libraries (Debian: libxml2-dev, zlib1g-dev, libdeflate-dev, libbz2-dev, libsqlite3-dev). libbz2-dev
        // has no pkg-config file; its header and library are on the default paths.
        .systemLibrary(name: "CCityPackXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CCityPackZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CCityPackDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        .systemLibrary(name: "CCityPackBzip2", providers: [.apt(["libbz2-dev"])]),
        .systemLibrary(name: "CCityPackSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),

        .target(name: "CityPackSupport", dependencies: [.product(name: "Crypto", package: "swift-crypto")]),
        .target(name: "CityPackStorage", dependencies: ["CCityPackSQLite", "CCityPackZlib"]),
        .target(name: "CityPackDiagnostics", dependencies: ["CityPackSupport"]),
        .target(name: "CityPackModel", dependencies: ["CityPackDiagnostics", "CityPackFormat", "CityPackSupport"]),
        .target(name: "CityPackFormat", dependencies: ["CityPackSupport", "CityPackStorage", "CCityPackSQLite"]),
        .target(
            name: "CityPackIngest",
            dependencies: [
                "CityPackModel", "CityPackDiagnostics", "CityPackFormat", "CityPackSupport", "CityPackStorage",
                "CCityPackXML2", "CCityPackZlib", "CCityPackDeflate", "CCityPackBzip2",
                .product(name: "Yams", package: "Yams"),
            ],
            // The SAX callbacks and CSV scanner are the hot paths: skip dynamic exclusivity checks in release
            // builds (measured ~3 % of a Liechtenstein build in swift_beginAccess). Debug builds keep them.
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]),
        .target(
            name: "CityPackValidate",
            dependencies: ["CityPackModel", "CityPackDiagnostics", "CityPackFormat", "CityPackSupport"]),
        .target(
            name: "CityPackEmit",
            dependencies: [
                "CityPackModel", "CityPackFormat", "CityPackDiagnostics", "CityPackSupport", "CityPackStorage",
                "CCityPackSQLite",
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .target(
            name: "CityPackKit",
            dependencies: [
                "CityPackFormat", "CityPackSupport", "CityPackStorage", "CCityPackSQLite",
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .target(
            name: "CityPackCompiler",
            dependencies: [
                "CityPackDiagnostics", "CityPackModel", "CityPackIngest", "CityPackValidate",
                "CityPackEmit", "CityPackFormat", "CityPackSupport", "CCityPackZlib",
            ]),
        .target(
            name: "CityPackCLI",
            dependencies: [
                "CityPackCompiler", "CityPackKit", "CityPackDiagnostics", "CityPackModel", "CityPackIngest",
                "CityPackDevTools", "CityPackEmit", "CityPackFormat", "CityPackSupport", "CityPackStorage", "CCityPackZlib",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "FlyingFox", package: "FlyingFox"),
            ]),
        // Dev tooling, not shipped in any library: `citypack bench`'s measurements and the osm-testdata
        // conformance run. The CLI keeps the thin `bench` subcommand over it.
        .target(
            name: "CityPackDevTools",
            dependencies: [
                "CityPackIngest", "CityPackDiagnostics", "CityPackKit", "CityPackFormat", "CityPackStorage",
                "CCityPackZlib",
            ]),
        .executableTarget(name: "citypack", dependencies: ["CityPackCLI"]),
        .executableTarget(name: "citypack-rusage"),

        .target(name: "CityPackTestSupport", dependencies: ["CityPackDiagnostics", "CityPackStorage", "CCityPackZlib"], path: "Tests/CityPackTestSupport"),
        .testTarget(name: "CityPackDiagnosticsTests", dependencies: ["CityPackDiagnostics", "CityPackTestSupport"]),
        .testTarget(name: "CityPackIngestTests", dependencies: ["CityPackIngest", "CityPackDevTools", "CityPackModel", "CityPackFormat", "CityPackTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "CityPackValidateTests", dependencies: ["CityPackValidate", "CityPackModel", "CityPackFormat", "CityPackIngest", "CityPackCompiler", "CityPackTestSupport"]),
        .testTarget(name: "CityPackSupportTests", dependencies: ["CityPackSupport", "CityPackTestSupport"]),
        .testTarget(name: "CityPackFormatTests", dependencies: ["CityPackFormat", "CityPackStorage", "CityPackTestSupport"]),
        .testTarget(name: "CityPackModelTests", dependencies: ["CityPackModel", "CityPackTestSupport"]),
        .testTarget(name: "CityPackEmitTests", dependencies: ["CityPackEmit", "CityPackKit", "CityPackDevTools", "CityPackFormat", "CityPackModel", "CityPackIngest", "CityPackDiagnostics", "CityPackSupport", "CityPackStorage", "CityPackTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "CityPackKitTests", dependencies: ["CityPackKit", "CityPackEmit", "CityPackCompiler", "CityPackFormat", "CityPackSupport", "CityPackStorage", "CityPackModel", "CityPackTestSupport"]),
        .testTarget(name: "CityPackCLITests", dependencies: ["CityPackCLI", "CityPackCompiler", "CityPackEmit", "CityPackDiagnostics", "CityPackDevTools", "CityPackKit", "CityPackFormat", "CityPackSupport", "CityPackTestSupport"]),
        .testTarget(name: "CityPackCompilerTests", dependencies: ["CityPackCompiler", "CityPackDiagnostics", "CityPackModel", "CityPackIngest", "CityPackTestSupport", "CCityPackSQLite"], exclude: ["Golden"]),
    ],
    swiftLanguageModes: [.v6]
)
