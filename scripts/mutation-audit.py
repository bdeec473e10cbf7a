#!/usr/bin/env python3
"""Mutation audit: realistic one-line faults in the newest code (pack libraries, journeys in both readers, search,
cache keys, column reads, journey ids), each applied alone to a checkout, the tests that cover its area run, and
the fault counted as caught when any of them fails. The checkout is restored after each mutation.

    scripts/mutation-audit.py [--root DIR] [--no-shared] [--only NAME,...] [--json OUT]

--root runs on another checkout (e.g. a git worktree of an older commit, to measure its tests); a mutation whose
line that checkout lacks is reported as n/a. --no-shared runs the tests as a machine without ../shared would
(CITYPACK_SHARED_DATA pointing nowhere). Needs a debug build of the checkout (swift build --build-tests); each
Swift mutation rebuilds incrementally. Prints one line per mutation and a caught/total summary.
"""
import argparse
import json
import os
import subprocess
import sys
import time

# (name, kind, file, old, new, swift test filter or None, JS test files)
MUTATIONS = [
    # pack libraries
    ("swift-retries-unbounded", "pack library", "Sources/CityPackKit/Download.swift",
     "if attempt > configuration.maxRetries { throw failure }", "if attempt > configuration.maxRetries + 2 { throw failure }",
     "PackLibraryTests|FaultTableTests|UnreachableTests", []),
    ("swift-damaged-partial-kept", "pack library", "Sources/CityPackKit/Download.swift",
     "case .offline, .timeout, .serverError: true", "case .offline, .timeout, .serverError, .damaged: true",
     "PackLibraryTests|FaultTableTests", []),
    ("swift-resume-validator-forgotten", "pack library", "Sources/CityPackKit/Download.swift",
     "if let validator { seen.prime(validator) } else if resume { unlink(file.path) }", "if resume { unlink(file.path) }",
     "InstallKillTests", []),
    ("swift-refused-retried", "pack library", "Sources/CityPackKit/URLSessionTransport.swift",
     "case .cannotConnectToHost, .cannotFindHost,", "case .cannotFindHost,",
     "UnreachableTests|PackLibraryTests", []),
    ("swift-old-version-deleted-before-open", "pack library", "Sources/CityPackKit/Download.swift",
     "                try openVersion(city, manifest.dataVersion, options: PackReader.Options(detailCacheLimit: 0)).close()",
     "                if let installed { store.removeVersion(city, installed) }; try openVersion(city, manifest.dataVersion, options: PackReader.Options(detailCacheLimit: 0)).close()",
     "PackLibraryTests|FaultTableTests|InstallKillTests", []),
    ("swift-200-appended-to-partial", "pack library", "Sources/CityPackKit/URLSessionTransport.swift",
     "let flags = O_WRONLY | O_CREAT | (status == 206 ? O_APPEND : O_TRUNC)",
     "let flags = O_WRONLY | O_CREAT | (status == 206 || status == 200 ? O_APPEND : O_TRUNC)",
     "FaultTableTests|PackLibraryTests", []),
    ("js-if-range-dropped", "pack library", "clients/web/library-net.js",
     "      headers['if-range'] = validator;", "      void validator;",
     None, ["library.test.mjs", "library-resume.test.mjs"]),
    ("js-file-hash-unchecked", "pack library", "clients/web/library-net.js",
     "  if (bytes.length !== file.bytes || (await sha256(bytes)) !== file.sha256) {",
     "  if (bytes.length !== file.bytes) {",
     None, ["library.test.mjs", "library-resume.test.mjs"]),
    # journeys
    ("swift-change-time-zero", "journeys", "Sources/CityPackKit/Raptor.swift",
     "guard let given = table.sameStopChange[s] else { return Int32(options.minChangeSeconds) }",
     "guard let given = table.sameStopChange[s] else { return 0 }",
     "JourneyScenarioTests|JourneyPlannerTests", []),
    ("swift-tomorrow-dropped", "journeys", "Sources/CityPackKit/Raptor.swift",
     "        dayOffsets = Array(-back...1)", "        dayOffsets = Array(-back...0)",
     "JourneyScenarioTests|JourneyPlannerTests", []),
    ("js-tomorrow-dropped", "journeys", "clients/web/raptor.js",
     "    for (let d = -back; d <= 1; d++) this.dayOffsets.push(d);", "    for (let d = -back; d <= 0; d++) this.dayOffsets.push(d);",
     None, ["scenarios.test.mjs", "journeys.test.mjs"]),
    ("swift-extra-round", "journeys", "Sources/CityPackKit/Raptor.swift",
     "rounds = max(0, options.maxTransfers) + 2", "rounds = max(0, options.maxTransfers) + 3",
     "JourneyScenarioTests|JourneyPlannerTests", []),
    ("js-one-way-reversed", "journeys", "clients/web/raptor.js",
     "    else footpaths[from].push({ to, metres: fp.metres[i], seconds: fp.seconds[i] });",
     "    else footpaths[to].push({ to: from, metres: fp.metres[i], seconds: fp.seconds[i] });",
     None, ["scenarios.test.mjs", "journeys.test.mjs"]),
    ("js-transfer-time-ignored", "journeys", "clients/web/raptor.js",
     "  if (path.seconds != null) return path.seconds;", "  if (path.seconds != null) return 0;",
     None, ["scenarios.test.mjs", "journeys.test.mjs"]),
    ("js-extra-round", "journeys", "clients/web/raptor.js",
     "this.rounds = Math.max(0, o.maxTransfers) + 2;", "this.rounds = Math.max(0, o.maxTransfers) + 3;",
     None, ["scenarios.test.mjs", "journeys.test.mjs"]),
    # journey ids
    ("swift-id-any-spelling", "journeys", "Sources/CityPackKit/JourneyPlanner.swift",
     "        guard base64url(bytes) == id else { return nil }", "",
     "JourneyPlannerTests", []),
    # search
    ("js-fold-first-only", "search", "clients/web/tokens.js",
     "const SEARCH_FOLD_PATTERN = new RegExp(`[${Object.keys(SEARCH_FOLDS).join('')}]`, 'gu');",
     "const SEARCH_FOLD_PATTERN = new RegExp(`[${Object.keys(SEARCH_FOLDS).join('')}]`, 'u');",
     None, ["fold.test.mjs", "agreement.test.mjs"]),
    ("swift-fold-letter-dropped", "search", "Sources/CityPackFormat/SearchFold.swift",
     '        ("þ", "th"), ("Þ", "th"),', '        ("þ", "th"),',
     "SearchFoldTests|SearchFoldEndToEndTests|WebConstantsTests", ["fold.test.mjs"]),
    # cache keys
    ("cache-editorial-key-without-locales", "cache keys", "Sources/CityPackCompiler/StageWork+Cache.swift",
     '            [.value("default locale", city.defaultLocale), .fields("locales", city.locales)]',
     '            [.value("default locale", city.defaultLocale)]',
     "StageKeyReadsTests|CacheKeyTests|StageCacheTests", []),
    ("cache-emit-key-without-epoch", "cache keys", "Sources/CityPackCompiler/StageWork+Cache.swift",
     '            [.cityFile, .value("today", "\\(today)"), .fields("source date epoch", plan.options.sourceDateEpoch as Any),',
     '            [.cityFile, .value("today", "\\(today)"),',
     "StageKeyReadsTests|CacheKeyTests|StageCacheTests", []),
    ("cache-osm-key-without-bbox-line", "cache keys", "Sources/CityPackCompiler/StageWork+Cache.swift",
     '            [.fields("bbox", city.bbox), .value("bbox location", "\\(Compiler.keyLocation("bbox", in: city.file))"),',
     '            [.fields("bbox", city.bbox),',
     "StageKeyReadsTests|CacheKeyTests|StageCacheTests", []),
    # column reads
    ("column-optional-null-as-value", "column reads", "Sources/CityPackSQLite/ColumnValue.swift",
     "        s.isNull(i) ? nil : Wrapped.read(s, at: i)", "        Wrapped.read(s, at: i)",
     "PackStatementTests", []),
    ("column-int64-null-as-zero", "column reads", "Sources/CityPackSQLite/PackStatement.swift",
     "        return statement.isNull(i) ? nil : statement.int64(i)", "        return statement.int64(i)",
     "PackStatementTests", []),
]


def run(cmd, cwd, env, timeout):
    try:
        r = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
        return r.returncode, r.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return 124, "timeout"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("--no-shared", action="store_true")
    ap.add_argument("--only", default="")
    ap.add_argument("--json")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    env = dict(os.environ)
    if args.no_shared:
        env["CITYPACK_SHARED_DATA"] = "/dev/null/no-shared-data"
    env["CITYPACK_BIN"] = os.path.join(root, ".build/debug/citypack")
    only = set(filter(None, args.only.split(",")))
    results = []
    for name, kind, rel, old, new, swift_filter, js_files in MUTATIONS:
        if only and name not in only:
            continue
        path = os.path.join(root, rel)
        text = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
        if text.count(old) != 1:
            results.append({"name": name, "kind": kind, "result": "n/a"})
            print(f"{name:40} n/a (the line is not in this checkout)", flush=True)
            continue
        started = time.time()
        open(path, "w", encoding="utf-8").write(text.replace(old, new))
        caught_by = []
        try:
            if rel.endswith(".swift") or swift_filter:
                status, out = run(["swift", "build", "--build-tests"], root, env, 1800)
                if status != 0:
                    caught_by.append("build")
            if not caught_by and swift_filter:
                status, out = run(["swift", "test", "--skip-build", "--filter", swift_filter], root, env, 1800)
                if status != 0:
                    caught_by.append("swift:" + swift_filter)
            for js in js_files:
                if not os.path.exists(os.path.join(root, "clients/web/test", js)):
                    continue
                status, out = run(["node", "--test", f"clients/web/test/{js}"], root, env, 1200)
                if status != 0:
                    caught_by.append("js:" + js)
        finally:
            open(path, "w", encoding="utf-8").write(text)
        result = "caught" if caught_by else "survived"
        results.append({"name": name, "kind": kind, "result": result, "by": caught_by, "seconds": round(time.time() - started)})
        print(f"{name:40} {result:9} {', '.join(caught_by)} ({round(time.time() - started)} s)", flush=True)
    # Rebuild the restored code so the checkout is left as it was.
    run(["swift", "build", "--build-tests"], root, env, 1800)
    applicable = [r for r in results if r["result"] != "n/a"]
    caught = sum(1 for r in applicable if r["result"] == "caught")
    print(f"caught {caught} of {len(applicable)} ({'no ' if args.no_shared else 'with '}../shared); n/a {len(results) - len(applicable)}")
    if args.json:
        json.dump(results, open(args.json, "w"), indent=2)


if __name__ == "__main__":
    sys.exit(main())
