// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for CityPack's parsers: one executable per parser, each exporting LLVMFuzzerTestOneInput.
// A separate package, so `swift build` / `swift test` of the main package never see sanitizer flags.
// Build and run with ../scripts/fuzz.sh (it passes -sanitize=fuzzer,address and -parse-as-library).
let ingest: Target.Dependency = .product(name: "CityPackIngest", package: "CityPack")

let package = Package(
    name: "CityPackFuzz",
    dependencies: [.package(name: "CityPack", path: "..")],
    targets: [
        .target(name: "FuzzSupport"),
        .target(name: "FuzzOSMReading", dependencies: [ingest, "FuzzSupport"]),
        .executableTarget(name: "FuzzOSM", dependencies: ["FuzzOSMReading", "FuzzSupport"]),
        .executableTarget(name: "FuzzPBF", dependencies: ["FuzzOSMReading", "FuzzSupport"]),
        .executableTarget(name: "FuzzCSV", dependencies: [ingest, "FuzzSupport"]),
        .executableTarget(name: "FuzzGTFSZip", dependencies: [ingest, "FuzzSupport"]),
        .executableTarget(name: "FuzzGTFSDir", dependencies: [ingest, "FuzzSupport"]),
        .executableTarget(name: "FuzzCityFile", dependencies: [ingest, "FuzzSupport"]),
        .executableTarget(name: "FuzzCopyMessage", dependencies: [ingest, "FuzzSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
