import CityPackFormat
import CityPackKit
import CityPackTestSupport
import Foundation
import Testing

/// Releases through the binary: reproducible versions, diff, signatures, verification and I/O failures.
@Suite(.serialized) struct ReleaseCLITests {
    /// `keep_versions:` in the city file sets how many previous versions stay; `--keep` beats it.
    @Test func keepVersionsFromTheCityFileAndTheCommandLine() throws {
        let f = try ReleaseFixture()
        let yamlURL = f.city.appendingPathComponent("city.yaml")
        let yaml = try String(contentsOf: yamlURL, encoding: .utf8)
        try (yaml + "keep_versions: 0\n").write(to: yamlURL, atomically: true, encoding: .utf8)
        #expect(try CLIRunner.run(f.buildArguments()).status == 0)
        try f.write(ReleaseFixture.plusOne)
        #expect(try CLIRunner.run(f.buildArguments()).status == 0)
        var files = try f.hashes().keys.filter { $0.hasSuffix(".citypack.gz") }.sorted()
        #expect(files == ["release/release-2.citypack.gz"], "keep_versions: 0 keeps only the current version")

        // The command line wins: --keep 1 keeps version 2 beside version 3.
        try f.write(ReleaseFixture.base)
        #expect(try CLIRunner.run(f.buildArguments(["--keep", "1"])).status == 0)
        files = try f.hashes().keys.filter { $0.hasSuffix(".citypack.gz") }.sorted()
        #expect(files == ["release/release-2.citypack.gz", "release/release-3.citypack.gz"])

        // A negative or non-numeric value is a located city-file error.
        try (yaml + "keep_versions: -1\n").write(to: yamlURL, atomically: true, encoding: .utf8)
        let bad = try CLIRunner.run(f.buildArguments())
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("city.yaml:") && bad.stderr.contains("keep_versions") && bad.stderr.contains("[city.syntax]"), "\(bad.stderr)")
    }

    @Test func unchangedRebuildIsByteIdenticalAndOnePOIChangeBumpsTheVersion() throws {
        let f = try ReleaseFixture()
        let keyPath = f.root.appendingPathComponent("keys/release").path
        try FileManager.default.createDirectory(atPath: (keyPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(try CLIRunner.run(["keygen", "--output", keyPath]).status == 0)

        let first = try CLIRunner.run(f.buildArguments(["--sign-key", keyPath]))
        #expect(first.status == 0, "\(first.stderr)")
        let before = try f.hashes()
        #expect(before.keys.contains("release/release-1.citypack.gz"))
        #expect(before.keys.contains("release/release-1.manifest.json"))
        #expect(before.keys.contains("catalog.json"))

        // Unchanged content, a different build time: same version, every file byte-identical.
        let again = try CLIRunner.run(f.buildArguments(["--sign-key", keyPath]), environment: ["SOURCE_DATE_EPOCH": "1900000000"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try f.hashes() == before, "an unchanged rebuild changed a file")

        // One POI more: data version 2, the previous version kept, the diff names the POI.
        try f.write(ReleaseFixture.plusOne)
        let changed = try CLIRunner.run(f.buildArguments(["--sign-key", keyPath]))
        #expect(changed.status == 0, "\(changed.stderr)")
        let manifest = try ReleaseFixture.json(f.manifest)
        #expect(manifest["dataVersion"] as? Int == 2)
        #expect(manifest["minReaderVersion"] as? Int == Int(PackSchema.formatVersion) && manifest["formatVersion"] as? Int == Int(PackSchema.formatVersion))
        #expect(manifest["locales"] as? [String] == ["en", "fr"])
        #expect((manifest["updatedAt"] as? String)?.hasPrefix("2024-05-01") == true)
        let after = try f.hashes()
        #expect(after["release/release-1.citypack.gz"] == before["release/release-1.citypack.gz"], "version 1 is kept")
        let catalog = try ReleaseFixture.json(f.catalog)
        let entry = (catalog["packs"] as? [[String: Any]])?.first ?? [:]
        #expect(entry["dataVersion"] as? Int == 2)
        #expect(entry["path"] as? String == "release/release-2.citypack.gz")
        #expect(entry["sha256"] as? String == after["release/release-2.citypack.gz"])
        #expect(entry["manifestSha256"] as? String == after["release/manifest.json"])
        for key in ["etag", "locales", "updatedAt", "minReaderVersion", "bytes", "name", "formatVersion"] {
            #expect(entry[key] != nil, "catalog entry lacks \(key)")
        }

        let diff = try CLIRunner.run(["diff", f.cityDir.appendingPathComponent("release-1.manifest.json").path, f.manifest.path, "--format", "json"])
        #expect(diff.status == 0, "\(diff.stderr)")
        let json = try CLIRunner.json(diff.stdout)
        let pois = (json["entities"] as? [[String: Any]])?.first { $0["entity"] as? String == "pois" }
        #expect((pois?["counts"] as? [String: Int])?["added"] == 1)
        #expect((pois?["counts"] as? [String: Int])?["removed"] == 0)
        let changes = pois?["changes"] as? [[String: Any]] ?? []
        #expect(changes.count == 1)
        #expect(changes.first?["key"] as? String == "n105" && changes.first?["name"] as? String == "Toilettes Neuves")
        let human = try CLIRunner.run(["diff", f.cityDir.appendingPathComponent("release-1.citypack.gz").path, f.manifest.path])
        #expect(human.stdout.contains("pois: 1 added") && human.stdout.contains("+ n105 \"Toilettes Neuves\" [toilet]"), "\(human.stdout)")

        // Both versions verify; version 1 is refused when version 2 is installed (rollback).
        let ok = try CLIRunner.run(["verify", f.catalog.path, "--public-key", keyPath + ".pub"])
        #expect(ok.status == 0, "\(ok.stdout)\(ok.stderr)")
        let old = f.cityDir.appendingPathComponent("release-1.manifest.json").path
        #expect(try CLIRunner.run(["verify", old, "--public-key", keyPath + ".pub", "--installed-version", "1"]).status == 0)
        let rollback = try CLIRunner.run(["verify", old, "--public-key", keyPath + ".pub", "--installed-version", "2"])
        #expect(rollback.status == 1 && rollback.stderr.contains("rollback"), "\(rollback.stderr)")
    }

    @Test func tamperingAnyByteIsRefused() throws {
        let f = try ReleaseFixture()
        let keyPath = f.root.appendingPathComponent("k").path
        #expect(try CLIRunner.run(["keygen", "--output", keyPath]).status == 0)
        #expect(try CLIRunner.run(["keygen", "--output", keyPath]).status == 74, "keygen never overwrites a key silently")
        #expect(try CLIRunner.run(f.buildArguments(["--sign-key", keyPath])).status == 0)
        let pub = keyPath + ".pub"
        #expect(try CLIRunner.run(["verify", f.manifest.path, "--public-key", pub]).status == 0)

        /// Runs `verify` with one byte of `file` flipped, then puts the file back.
        func verifyWithOneByteFlipped(in file: URL) throws -> CLIRunner.Result {
            let original = try Data(contentsOf: file)
            defer { try? original.write(to: file) }
            var bytes = original
            bytes[bytes.count / 2] ^= 0x01
            try bytes.write(to: file)
            return try CLIRunner.run(["verify", f.manifest.path, "--public-key", pub])
        }

        // One byte of the pack.
        let packResult = try verifyWithOneByteFlipped(in: f.cityDir.appendingPathComponent("release-1.citypack.gz"))
        #expect(packResult.status == 1 && packResult.stderr.contains("SHA-256"), "\(packResult.stderr)")

        // One byte of a web part: the manifest and pack still verify, the part does not.
        let web = f.cityDir.appendingPathComponent("web")
        let part = try #require(try FileManager.default.contentsOfDirectory(atPath: web.path).first { $0.hasPrefix("places-") })
        let partResult = try verifyWithOneByteFlipped(in: web.appendingPathComponent(part))
        #expect(partResult.status == 1 && partResult.stderr.contains("web part places"), "\(partResult.stderr)")
        #expect(partResult.stdout.contains("web part search"), "the other parts still verify")

        // One byte of the manifest (a digit of the POI count): the signature no longer verifies.
        let manifestBytes = try Data(contentsOf: f.manifest)
        let text = String(decoding: manifestBytes, as: UTF8.self)
        let tampered = text.replacingOccurrences(of: "\"pois\" : 4", with: "\"pois\" : 5")
        #expect(tampered != text)
        try Data(tampered.utf8).write(to: f.manifest)
        let manifestResult = try CLIRunner.run(["verify", f.manifest.path, "--public-key", pub])
        #expect(manifestResult.status == 1 && manifestResult.stderr.contains("signature"), "\(manifestResult.stderr)")
        // Without a key the hashes still hold (the change was in a count), so only the signature catches it.
        #expect(try CLIRunner.run(["verify", f.manifest.path]).status == 0)
        try manifestBytes.write(to: f.manifest)

        // A key that did not sign: untrusted.
        let other = f.root.appendingPathComponent("other").path
        #expect(try CLIRunner.run(["keygen", "--output", other]).status == 0)
        let wrongKey = try CLIRunner.run(["verify", f.manifest.path, "--public-key", other + ".pub"])
        #expect(wrongKey.status == 1 && wrongKey.stderr.contains("not trusted"), "\(wrongKey.stderr)")

        // The catalog is signed too: one byte changed in it is refused.
        let catalogBytes = try Data(contentsOf: f.catalog)
        try Data(String(decoding: catalogBytes, as: UTF8.self).replacingOccurrences(of: "Release Town", with: "Release Tawn").utf8)
            .write(to: f.catalog)
        #expect(try CLIRunner.run(["verify", f.catalog.path, "--public-key", pub]).status == 1)
        try catalogBytes.write(to: f.catalog)
        #expect(try CLIRunner.run(["verify", f.catalog.path, "--public-key", pub]).status == 0)
    }

    /// The signature scheme documented in docs/RELEASES.md, checked by an independent implementation: Python's
    /// `json` (sorted keys, no whitespace) and the `cryptography` package's Ed25519 (OpenSSL).
    @Test(.needs(OutsideTools.pythonCryptography)) func signaturesVerifyWithAnIndependentImplementation() throws {
        let f = try ReleaseFixture()
        let keyPath = f.root.appendingPathComponent("k").path
        #expect(try CLIRunner.run(["keygen", "--output", keyPath]).status == 0)
        #expect(try CLIRunner.run(f.buildArguments(["--sign-key", keyPath])).status == 0)
        let script = """
            import json, base64, sys
            from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
            key = Ed25519PublicKey.from_public_bytes(base64.b64decode(open(sys.argv[1]).read()))
            for path in sys.argv[2:]:
                doc = json.load(open(path, encoding='utf-8'))
                signature = base64.b64decode(doc.pop('signature'))
                key.verify(signature, json.dumps(doc, sort_keys=True, separators=(',', ':'), ensure_ascii=False).encode())
            print('verified', len(sys.argv) - 2)
            """
        let r = try OutsideTools.pythonCryptography.run(["-c", script, keyPath + ".pub", f.manifest.path, f.catalog.path])
        #expect(r.status == 0 && r.stdout.contains("verified 2"), "\(r.stderr)")
    }

    /// I/O failures are a located `pack.io_failure` with exit 74 and leave nothing behind.
    @Test func unwritableOutputExits74WithALocatedDiagnostic() throws {
        let f = try ReleaseFixture()
        // A regular file where a folder must go: fails for root as well (chmod does not stop root).
        let blocker = f.root.appendingPathComponent("blocker")
        try Data("x".utf8).write(to: blocker)
        let target = blocker.appendingPathComponent("outputs").path
        let result = try CLIRunner.run([
            "build", f.city.path, "--output", target, "--templates", TestPaths.root.appendingPathComponent("templates").path,
        ])
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains("\(target): error[pack.io_failure]") || result.stderr.contains(blocker.path), "\(result.stderr)")
        #expect(result.stderr.contains("ENOTDIR") || result.stderr.contains("EEXIST"), "\(result.stderr)")

        // A read-only folder: /proc refuses new entries even for root; a non-root user gets chmod 0555.
        var readOnly = "/proc/citypack-outputs"
        if getuid() != 0 {
            let dir = f.root.appendingPathComponent("ro")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            chmod(dir.path, 0o555)
            readOnly = dir.path
        }
        let ro = try CLIRunner.run([
            "build", f.city.path, "--output", readOnly, "--templates", TestPaths.root.appendingPathComponent("templates").path,
        ])
        #expect(ro.status == 74, "\(ro.stderr)")
        #expect(ro.stderr.contains(readOnly) && ro.stderr.contains("pack.io_failure"), "\(ro.stderr)")

        // The JSON diagnostic carries the path as its location.
        let json = try CLIRunner.run([
            "build", f.city.path, "--output", target, "--templates", TestPaths.root.appendingPathComponent("templates").path,
            "--format", "json",
        ])
        #expect(json.status == 74)
        let diagnostics = (try CLIRunner.json(json.stdout)["diagnostics"] as? [[String: Any]]) ?? []
        let io = diagnostics.first { $0["code"] as? String == "pack.io_failure" }
        #expect(((io?["location"] as? [String: Any])?["file"] as? String)?.hasPrefix(blocker.path) == true, "\(json.stdout)")
    }

    /// Four `citypack build` processes writing four cities into one folder at the same time: the lock serialises
    /// their release steps, so the catalog lists all four and every file matches.
    @Test func concurrentBuildsIntoOneFolder() throws {
        let f = try ReleaseFixture()
        var processes: [Process] = []
        for i in 0..<4 {
            let city = f.root.appendingPathComponent("inputs/c\(i)")
            try FileManager.default.copyItem(at: f.city, to: city)
            let yaml = city.appendingPathComponent("city.yaml")
            try String(contentsOf: yaml, encoding: .utf8).replacingOccurrences(of: "id: release", with: "id: c\(i)")
                .write(to: yaml, atomically: true, encoding: .utf8)
            let p = Process()
            p.executableURL = CLIRunner.binary
            p.arguments = ["build", city.path, "--output", f.output.path, "--templates",
                           TestPaths.root.appendingPathComponent("templates").path, "--quiet"]
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            processes.append(p)
        }
        for p in processes {
            p.waitUntilExit()
            #expect(p.terminationStatus == 0)
        }
        let catalog = try ReleaseFixture.json(f.catalog)
        #expect((catalog["packs"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["c0", "c1", "c2", "c3"])
        let verify = try CLIRunner.run(["verify", f.catalog.path])
        #expect(verify.status == 0, "\(verify.stderr)")
        let visible = try FileManager.default.contentsOfDirectory(atPath: f.output.path).filter { !$0.hasPrefix(".") }.sorted()
        #expect(visible == ["c0", "c1", "c2", "c3", "catalog.json"])
    }

    @Test func catalogMergesCityFoldersOfSeveralBuilds() throws {
        // Two "CI jobs" build one city each into their own folders; the city folders are copied together.
        let a = try ReleaseFixture()
        let b = try ReleaseFixture(places: ReleaseFixture.plusOne)
        let yaml = b.city.appendingPathComponent("city.yaml")
        try String(contentsOf: yaml, encoding: .utf8).replacingOccurrences(of: "id: release", with: "id: second")
            .write(to: yaml, atomically: true, encoding: .utf8)
        #expect(try CLIRunner.run(a.buildArguments()).status == 0)
        #expect(try CLIRunner.run(b.buildArguments()).status == 0)
        let merged = try TestPaths.temporaryDirectory("merged")
        try FileManager.default.copyItem(at: a.cityDir, to: merged.appendingPathComponent("release"))
        try FileManager.default.copyItem(at: b.output.appendingPathComponent("second"), to: merged.appendingPathComponent("second"))
        let result = try CLIRunner.run(["catalog", merged.path])
        #expect(result.status == 0, "\(result.stderr)")
        let catalog = try CLIRunner.json(result.stdout)
        let ids = (catalog["packs"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
        #expect(ids == ["release", "second"])
        #expect(try CLIRunner.run(["verify", merged.appendingPathComponent("catalog.json").path]).status == 0)
    }
}

/// Real disk-full and read-only file systems (a small tmpfs), where the machine lets the tests mount one (root
/// with CAP_SYS_ADMIN, as in CI containers); elsewhere the test is reported as skipped.
@Suite(.serialized) struct FileSystemFailureTests {
    static func sh(_ command: String) -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", command]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return -1 }
        p.waitUntilExit()
        return p.terminationStatus
    }

    /// Whether this machine lets the tests mount a tmpfs: tried once, on a scratch folder.
    static let canMountTmpfs: Bool = {
        guard getuid() == 0, let dir = try? TestPaths.temporaryDirectory("tmpfs-probe") else { return false }
        defer { try? FileManager.default.removeItem(at: dir) }
        guard sh("mount -t tmpfs -o size=24k tmpfs '\(dir.path)'") == 0 else { return false }
        _ = sh("umount '\(dir.path)'")
        return true
    }()

    @Test(.enabled(if: FileSystemFailureTests.canMountTmpfs, "needs root allowed to mount a tmpfs (CAP_SYS_ADMIN), as in CI"))
    func diskFullAndReadOnlyFileSystemExit74AndKeepThePreviousRelease() throws {
        let f = try ReleaseFixture()
        let mountPoint = f.root.appendingPathComponent("fs")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        try #require(Self.sh("mount -t tmpfs -o size=24k tmpfs '\(mountPoint.path)'") == 0, "mount a tmpfs on \(mountPoint.path)")
        defer { _ = Self.sh("umount '\(mountPoint.path)'") }
        let templates = TestPaths.root.appendingPathComponent("templates").path
        let output = mountPoint.appendingPathComponent("outputs").path

        // Disk full: the pack does not fit in 24 KiB.
        let full = try CLIRunner.run(["build", f.city.path, "--output", output, "--templates", templates])
        #expect(full.status == 74, "\(full.stderr)")
        #expect(full.stderr.contains("pack.io_failure") && full.stderr.contains(output), "\(full.stderr)")
        #expect(full.stderr.contains("full") || full.stderr.contains("ENOSPC") || full.stderr.contains("space"), "\(full.stderr)")
        // No release file (the city folder may hold the build's report, written even when a build fails).
        let left = (try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []
        #expect(!left.contains("catalog.json"), "\(left)")
        #expect(!FileManager.default.fileExists(atPath: output + "/release/manifest.json"))

        // Room for one release, then the file system turns read-only: exit 74, the release is untouched.
        #expect(Self.sh("mount -o remount,size=2m '\(mountPoint.path)'") == 0)
        #expect(try CLIRunner.run(["build", f.city.path, "--output", output, "--templates", templates, "--quiet"]).status == 0)
        let before = try f.hashesOf(output)
        #expect(Self.sh("mount -o remount,ro '\(mountPoint.path)'") == 0)
        try f.write(ReleaseFixture.plusOne)
        let ro = try CLIRunner.run(["build", f.city.path, "--output", output, "--templates", templates])
        #expect(ro.status == 74, "\(ro.stderr)")
        #expect(ro.stderr.contains("EROFS") && ro.stderr.contains(output), "\(ro.stderr)")
        #expect(try f.hashesOf(output) == before)
        _ = Self.sh("mount -o remount,rw '\(mountPoint.path)'")
    }
}
