// swift-tools-version:6.0
import PackageDescription

// Module graph (data flows one way):
//   citypack → CityPackCLI → CityPackBuild → CityPackCompiler → {Ingest, Validate, Emit}
//   CityPackCompiler plans and runs; what it remembers between builds is CityPackCache (on Ingest, Model and
//   Emit): the cache keys, the entry codec, the stage cache's files and the memos of digests and source lines.
//   CityPackBuild finishes a build as a library call (BuildSession): plan, run, then report.json, report.html
//   (its CSS/JS are Sources/CityPackBuild/Assets/, embedded by scripts/embed-report-assets.py), build-stats.json,
//   the baseline and the exit decision; the watch loop (BuildWatcher) and fleets (FleetSession) too. The CLI
//   parses, calls it and renders.
//   every stage → CityPackModel → {CityPackDiagnostics, CityPackGeometry}
//   CityPackCLI also uses CityPackPreview (`citypack preview`'s server and page, on FlyingFox; imports nothing of
//   ours) and CityPackDevTools (`citypack bench`'s measurements and the osm-testdata run; not in any library).
//   Leaves that import nothing of ours but each other as shown:
//   - CityPackGeometry: coordinates and bounding boxes, great-circle distance, geohash cells, and the editorial
//     action kinds (the one pack value the model holds). Pure Swift: Model, Ingest and Validate need only this
//     of the pack's vocabulary.
//   - CityPackSupport: general helpers in pure Swift (+ swift-crypto for SHA-256): sorted and canonical JSON, the
//     compact JSON encoder, civil dates and times, file digests, the time trace. CityPackDiagnostics needs only
//     this, so the lowest stage module pulls in neither SQLite nor zlib.
//   - CityPackStorage: the wrapper over zlib (ZlibStream: the gzip a pack ships in, PBF blobs, zip entries). Kept
//     apart from CityPackFormat because the readers of inputs (Ingest) and the tooling need it without the pack
//     format's meaning, and apart from CityPackSupport because it links a C library.
//   - CityPackSQLite (on CityPackFormat, CityPackStorage and CityPackSupport): the wrapper over SQLite (the pack
//     database), DatabasePages (the page statistics behind PackSizes), and PackStatement + ColumnValue: the pack's
//     columns (declared once in CityPackFormat's PackSchema with their Swift types) bound and read by column.
//     Only the pack's writer and readers use it.
//   CityPackFormat (the pack format: schema, manifest, catalog, signatures, geohash proximity index, sizes, delta,
//   web flavour) stands on CityPackGeometry (re-exported) and CityPackSupport and links no C library; CityPackEmit
//   (the writer) and CityPackKit (the app-side reader, which re-exports CityPackFormat) add CityPackSQLite.
//   CityPackTiles (on CityPackGeometry only; pure Swift): the schema-neutral core of Mapbox Vector Tile 2.1 tiles:
//     Web Mercator tile math, projection into a tile's integer space, clipping with a buffer, simplification per
//     zoom, MVT winding and the hand-written protobuf encoder. Picks no schema; CityPackEmit's MBTilesWriter
//     writes its tiles as an MBTiles 1.3 tileset.
//   Of the stages, only Emit links SQLite; Ingest links zlib (gzip, PBF and zip inputs, through CityPackStorage);
//   Model, Validate and Diagnostics link neither.
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
        .target(name: "CityPackStorage", dependencies: ["CCityPackZlib"]),
        .target(name: "CityPackSQLite", dependencies: ["CityPackFormat", "CityPackStorage", "CityPackSupport", "CCityPackSQLite"]),
        .target(name: "CityPackDiagnostics", dependencies: ["CityPackSupport"]),
        .target(name: "CityPackGeometry"),
        .target(name: "CityPackModel", dependencies: ["CityPackDiagnostics", "CityPackGeometry", "CityPackSupport"]),
        .target(name: "CityPackFormat", dependencies: ["CityPackGeometry", "CityPackSupport"]),
        .target(name: "CityPackTiles", dependencies: ["CityPackGeometry"]),
        .target(
            name: "CityPackIngest",
            dependencies: [
                "CityPackModel", "CityPackDiagnostics", "CityPackGeometry", "CityPackSupport", "CityPackStorage",
                "CCityPackXML2", "CCityPackZlib", "CCityPackDeflate", "CCityPackBzip2",
                .product(name: "Yams", package: "Yams"),
            ],
            // The SAX callbacks and CSV scanner are the hot paths: skip dynamic exclusivity checks in release
            // builds (measured ~3 % of a Liechtenstein build in swift_beginAccess). Debug builds keep them.
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]),
        .target(
            name: "CityPackValidate",
            dependencies: ["CityPackModel", "CityPackDiagnostics", "CityPackGeometry", "CityPackSupport"]),
        .target(
            name: "CityPackEmit",
            dependencies: [
                "CityPackModel", "CityPackFormat", "CityPackDiagnostics", "CityPackSupport", "CityPackStorage",
                "CityPackSQLite", "CityPackTiles", "CCityPackSQLite", "CCityPackDeflate",
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .target(
            name: "CityPackKit",
            dependencies: [
                "CityPackFormat", "CityPackSupport", "CityPackStorage", "CityPackSQLite", "CCityPackSQLite",
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        // The build cache: keys, the entry codec, the stage cache's files and the memos (digests, source lines).
        .target(
            name: "CityPackCache",
            dependencies: [
                "CityPackDiagnostics", "CityPackModel", "CityPackIngest", "CityPackEmit", "CityPackFormat", "CityPackSupport",
            ]),
        .target(
            name: "CityPackCompiler",
            dependencies: [
                "CityPackCache", "CityPackDiagnostics", "CityPackModel", "CityPackIngest", "CityPackValidate",
                "CityPackEmit", "CityPackFormat", "CityPackSupport", "CCityPackZlib",
            ]),
        .target(
            name: "CityPackBuild",
            dependencies: [
                "CityPackCompiler", "CityPackDiagnostics", "CityPackModel", "CityPackFormat", "CityPackEmit",
                "CityPackIngest", "CityPackSupport",
            ],
            // The assets are embedded (ReportAssets+Files.swift), not bundled: a copied binary needs no bundle.
            exclude: ["Assets"]),
        .target(
            name: "CityPackCLI",
            dependencies: [
                "CityPackBuild", "CityPackCompiler", "CityPackKit", "CityPackDiagnostics", "CityPackFormat", "CityPackSupport",
                "CityPackDevTools", "CityPackPreview", "CityPackStorage", "CCityPackZlib",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // `citypack preview`'s server (FlyingFox, loopback only), its request-target guard, the page's state and the
        // page itself: Assets/*, embedded by scripts/embed-assets.py into PreviewPage+Files.swift.
        .target(
            name: "CityPackPreview",
            dependencies: [.product(name: "FlyingFox", package: "FlyingFox")],
            exclude: ["Assets"]),
        // Dev tooling, not shipped in any library: `citypack bench`'s measurements and the osm-testdata
        // conformance run. The CLI keeps the thin `bench` subcommand over it.
        .target(
            name: "CityPackDevTools",
            dependencies: [
                "CityPackIngest", "CityPackDiagnostics", "CityPackKit", "CityPackFormat", "CityPackStorage",
                "CityPackSQLite", "CityPackTiles", "CCityPackZlib",
            ]),
        .executableTarget(name: "citypack", dependencies: ["CityPackCLI"]),
        .executableTarget(name: "citypack-rusage"),

        .target(name: "CityPackTestSupport", dependencies: ["CityPackDiagnostics", "CityPackStorage", "CCityPackZlib"], path: "Tests/CityPackTestSupport"),
        .testTarget(name: "CityPackDiagnosticsTests", dependencies: ["CityPackDiagnostics", "CityPackTestSupport"]),
        .testTarget(name: "CityPackIngestTests", dependencies: ["CityPackIngest", "CityPackDevTools", "CityPackModel", "CityPackFormat", "CityPackTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "CityPackValidateTests", dependencies: ["CityPackValidate", "CityPackModel", "CityPackFormat", "CityPackIngest", "CityPackCompiler", "CityPackTestSupport"]),
        .testTarget(name: "CityPackSupportTests", dependencies: ["CityPackSupport", "CityPackTestSupport"]),
        .testTarget(name: "CityPackTilesTests", dependencies: ["CityPackTiles", "CityPackGeometry", "CityPackTestSupport", "CityPackIngest", "CityPackDiagnostics", "CityPackEmit", "CityPackSQLite", "CityPackStorage"]),
        .testTarget(name: "CityPackFormatTests", dependencies: ["CityPackFormat", "CityPackStorage", "CityPackSQLite", "CityPackTestSupport"]),
        .testTarget(name: "CityPackModelTests", dependencies: ["CityPackModel", "CityPackTestSupport"]),
        .testTarget(name: "CityPackEmitTests", dependencies: ["CityPackEmit", "CityPackTiles", "CityPackSQLite", "CityPackKit", "CityPackDevTools", "CityPackFormat", "CityPackModel", "CityPackIngest", "CityPackDiagnostics", "CityPackSupport", "CityPackStorage", "CityPackTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "CityPackKitTests", dependencies: ["CityPackKit", "CityPackEmit", "CityPackCompiler", "CityPackFormat", "CityPackSupport", "CityPackStorage", "CityPackModel", "CityPackTestSupport"]),
        .testTarget(name: "CityPackCLITests", dependencies: ["CityPackCLI", "CityPackValidate", "CityPackIngest", "CityPackBuild", "CityPackCompiler", "CityPackEmit", "CityPackDiagnostics", "CityPackDevTools", "CityPackKit", "CityPackFormat", "CityPackSQLite", "CityPackSupport", "CityPackTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "CityPackPreviewTests", dependencies: ["CityPackPreview", "CityPackTestSupport"]),
        .testTarget(name: "CityPackBuildTests", dependencies: ["CityPackBuild", "CityPackCompiler", "CityPackDiagnostics", "CityPackSupport", "CityPackTestSupport"]),
        .testTarget(name: "CityPackCompilerTests", dependencies: ["CityPackCompiler", "CityPackCache", "CityPackDiagnostics", "CityPackModel", "CityPackIngest", "CityPackTestSupport", "CCityPackSQLite"], exclude: ["Golden"]),
    ],
    swiftLanguageModes: [.v6]
)

// `swift test` builds the debug configuration; the project's own modules are optimised in it too (-O): the tests run
// real builds of real cities through them, and a Milan build compiled -Onone takes 4.7 s where -O takes 0.7 s. The
// full suite then runs in about half the time for about two more minutes of compiling (README, Tests).
for target in package.targets where target.type == .regular || target.type == .executable {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-O"], .when(configuration: .debug))]
}
