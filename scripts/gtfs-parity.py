#!/usr/bin/env python3
"""Runs gtfs-guru (a Rust port of MobilityData's gtfs-validator) and CityPack on GTFS feeds and prints their
findings side by side.

    scripts/gtfs-parity.py [--citypack BIN] [--date YYYY-MM-DD] [--markdown] [--summary] FEED...

For each feed (a .zip or a folder): per gtfs-validator notice code, how often gtfs-guru reports it ("there") and
how often CityPack reports the rule codes that cover it ("here"), with CityPack's status for the notice; then the
CityPack codes reported that no row shows (with the notices they cover, `-` for none). The mapping is CityPack's own (`citypack rules --format json`,
`gtfs_validator_parity`; docs/RULES.md renders it), so this script holds no copy of it. A CityPack code that covers
several notices (csv.invalid_value) is marked with `*` and shown in the rows of those gtfs-guru reports.

Both tools check the feed as of the same date (--date, default today in UTC): gtfs-guru gets it as its validation
date, CityPack as SOURCE_DATE_EPOCH. CityPack checks a city holding only the feed, with the whole world as its
bounding box (gtfs-validator has none), and lists every finding.

--markdown prints Markdown tables; --summary adds one table of all feeds (cells `there / here`).
gtfs-guru is imported from .deps/gtfs-guru (scripts/install-deps.sh --tests installs it there), else from the
Python path. Exit codes: 0 done, 2 usage, 69 gtfs-guru or citypack missing, 1 a tool failed on a feed.
"""
import argparse
import collections
import datetime
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEVERITIES = ["ERROR", "WARNING", "INFO"]
STATUS = {"covered": "covered", "partly_covered": "partly", "not_applicable": "n/a", "not_yet_covered": "not yet"}


def load_gtfs_guru():
    """The gtfs_guru module, from .deps/gtfs-guru first; exits with a clear message when it is absent."""
    deps = os.path.join(ROOT, ".deps", "gtfs-guru")
    if os.path.isdir(deps):
        sys.path.insert(0, deps)
    try:
        import gtfs_guru  # noqa: PLC0415
    except ImportError:
        sys.exit(fail(69, "gtfs-guru is not installed: run scripts/install-deps.sh --tests "
                          "(it installs gtfs-guru==1.0.0 into .deps/gtfs-guru), or pip install gtfs-guru==1.0.0"))
    return gtfs_guru


def fail(status, message):
    print(f"gtfs-parity: error: {message}", file=sys.stderr)
    return status


def find_citypack(given):
    if given:
        return given if os.access(given, os.X_OK) else None
    for build in ("debug", "release"):
        path = os.path.join(ROOT, ".build", build, "citypack")
        if os.access(path, os.X_OK):
            return path
    return None


def mapping(citypack):
    """gtfs-validator notice code → its entry of `gtfs_validator_parity`, from the binary."""
    out = subprocess.run([citypack, "rules", "--format", "json"], capture_output=True, text=True, check=True)
    document = json.loads(out.stdout)
    return {n["code"]: n for n in document["gtfs_validator_parity"]["notices"]}, {r["code"] for r in document["rules"]}


def run_gtfs_guru(gtfs_guru, feed, date):
    result = gtfs_guru.validate(feed, date=date)
    return collections.Counter(n.code for n in result.notices)


def run_citypack(citypack, feed, date):
    """Counts of CityPack codes on the feed (listed findings plus those the report leaves out)."""
    epoch = int(datetime.datetime.strptime(date, "%Y-%m-%d").replace(
        hour=12, tzinfo=datetime.timezone.utc).timestamp())
    env = dict(os.environ, SOURCE_DATE_EPOCH=str(epoch))
    with tempfile.TemporaryDirectory(prefix="gtfs-parity-") as work:
        # The whole world as the box: gtfs-validator has no box, and stops outside one are left out of a pack.
        city = os.path.join(work, "city")
        os.makedirs(city)
        with open(os.path.join(city, "city.yaml"), "w", encoding="utf-8") as f:
            f.write("id: parity\nname: Parity\nlocales: [en]\nbbox: [-180, -90, 180, 90]\n"
                    f"sources:\n  osm: []\n  gtfs: [{json.dumps(os.path.abspath(feed))}]\n")
        check = subprocess.run([citypack, "check", city, "--format", "json", "--quiet", "--output",
                                os.path.join(work, "out"), "--max-diagnostics", "100000000"],
                               capture_output=True, text=True, env=env)
        if check.returncode not in (0, 1):
            raise RuntimeError(f"citypack check exited {check.returncode}: {check.stderr.strip()[:500]}")
        report = json.loads(check.stdout)
    counts = collections.Counter(d["code"] for d in report["diagnostics"])
    counts.update(report.get("summary", {}).get("omitted", {}))
    return counts


def compare(notices, there, here):
    """Rows (code, severity, there, here, status, codes) for every notice gtfs-guru reports or that a CityPack code
    of its own covers, then the CityPack codes reported that no row shows, with the notices they map to (a code
    shared by several notices, such as csv.invalid_value, only shows in the rows of notices gtfs-guru reports)."""
    shared = collections.Counter(c for n in notices.values() for c in n["citypack"])
    rows = []
    shown = set()
    for code, n in notices.items():
        mapped = [c for c in n["citypack"] if here.get(c)]
        if not there.get(code) and not any(shared[c] == 1 for c in mapped):
            continue
        shown.update(mapped)
        codes = ", ".join(f"{c}{'*' if shared[c] > 1 else ''}={here[c]}" for c in mapped)
        rows.append((code, n["severity"], there.get(code, 0), sum(here[c] for c in mapped), STATUS[n["status"]], codes))
    rows.sort(key=lambda r: (SEVERITIES.index(r[1]), r[0]))
    unknown = sorted((c, k) for c, k in there.items() if c not in notices)
    rows += [(c, "?", k, 0, "unknown to the mapping", "") for c, k in unknown]
    targets = collections.defaultdict(list)
    for code, n in notices.items():
        for c in n["citypack"]:
            targets[c].append(code)
    extra = sorted((c, k, ", ".join(targets[c]) or "-") for c, k in here.items() if c not in shown)
    return rows, extra


def table(headers, rows, markdown):
    rows = [[str(x) for x in r] for r in rows]
    if markdown:
        lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
        lines += ["| " + " | ".join(x.replace("|", "\\|") for x in r) + " |" for r in rows]
        return "\n".join(lines)
    widths = [max(len(x) for x in col) for col in zip(headers, *rows)]
    fmt = lambda r: "  ".join(x.ljust(w) for x, w in zip(r, widths)).rstrip()  # noqa: E731
    return "\n".join([fmt(headers), fmt(["-" * w for w in widths])] + [fmt(r) for r in rows])


def main():
    parser = argparse.ArgumentParser(description="gtfs-guru and CityPack findings on GTFS feeds, side by side.")
    parser.add_argument("feeds", nargs="+", metavar="FEED", help="a GTFS .zip or folder")
    parser.add_argument("--citypack", help="the citypack binary (default .build/debug/citypack, else release)")
    parser.add_argument("--date", default=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
                        help="check the feeds as of this date, YYYY-MM-DD (default today, UTC)")
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    parser.add_argument("--summary", action="store_true", help="add one table of all feeds")
    args = parser.parse_args()
    citypack = find_citypack(args.citypack)
    if not citypack:
        return fail(69, f"no citypack binary{' at ' + args.citypack if args.citypack else ''}: "
                        "run `swift build` or pass --citypack")
    gtfs_guru = load_gtfs_guru()
    notices, _ = mapping(citypack)
    status = 0
    matrix = {}
    head = "###" if args.markdown else "=="
    print(f"{head} gtfs-guru {gtfs_guru.version()} vs citypack ({citypack}), checked as of {args.date}\n")
    for feed in args.feeds:
        name = os.path.basename(os.path.normpath(feed))
        try:
            there = run_gtfs_guru(gtfs_guru, feed, args.date)
            here = run_citypack(citypack, feed, args.date)
        except Exception as error:  # noqa: BLE001 (one feed's failure must not hide the others)
            status = fail(1, f"{feed}: {error}")
            continue
        rows, extra = compare(notices, there, here)
        matrix[name] = (rows, extra)
        print(f"{head} {name}: gtfs-guru {sum(there.values())} notices, CityPack {sum(here.values())} findings\n")
        print(table(["gtfs-validator notice", "severity", "gtfs-guru", "CityPack", "status", "CityPack codes"],
                    [r for r in rows], args.markdown))
        if extra:
            print("\nCityPack codes with no counterpart among gtfs-guru's notices on this feed:\n")
            print(table(["CityPack code", "count", "covers (gtfs-validator)"], extra, args.markdown))
        print()
    if args.summary and matrix:
        print(f"{head} all feeds (gtfs-guru / CityPack)\n")
        names = list(matrix)
        keys = {}
        for name, (rows, extra) in matrix.items():
            for r in rows:
                keys.setdefault((SEVERITIES.index(r[1]) if r[1] in SEVERITIES else 3, r[0]), r[4])
            for c, _, _ in extra:
                keys.setdefault((4, c), "CityPack only")
        out = []
        for (rank, code), state in sorted(keys.items()):
            cells = []
            for name in names:
                rows, extra = matrix[name]
                row = next((r for r in rows if r[0] == code), None)
                only = next((k for c, k, _ in extra if c == code), None) if rank == 4 else None
                cells.append(f"- / {only}" if only else f"{row[2]} / {row[3]}" if row else "")
            severity = SEVERITIES[rank] if rank < 3 else ""
            out.append([code, severity, state] + cells)
        print(table(["code", "severity", "status"] + names, out, args.markdown))
    return status


if __name__ == "__main__":
    sys.exit(main())
