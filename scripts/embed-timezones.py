#!/usr/bin/env python3
"""Writes the two generated time-zone files of CityPackModel, so `citypack init` and `build` derive a city's time
zone from its coordinates offline, on any machine, without reading the system's tz files:

- Sources/CityPackModel/CityTimeZone+Table.swift from tzdata's zone.tab (Debian package tzdata,
  /usr/share/zoneinfo/zone.tab): every zone's principal location and countries. One line per zone:
  `zone<TAB>lat<TAB>lon<TAB>countries`, degrees with 4 decimals.
- Sources/CityPackModel/CityTimeZone+Grid.swift from the zone boundaries (timezone-boundary-builder polygons) that
  the PyPI package timezonefinder ships, needed here only, at dev time (`pip install timezonefinder`): a world grid
  of GRID_STEP° cells, each holding the land zone that covers most of a 4 × 4 lattice of points inside it (ocean
  points, where timezonefinder has no land zone, count as nothing; a cell without land is empty) and whether more
  than one land zone occurs in it (a border cell).

    scripts/embed-timezones.py [--tab FILE] [--zi FILE] [--check]

--check   exit 1 when a Swift file differs from what would be written (nothing is written). Without timezonefinder
          only the table is checked (and only the table is written without --check).

Grid text: a first line with the zone list (space-separated; a cell's value is an index into it), then one line per
row of cells from the south pole (row 0: −90° … −90° + GRID_STEP) northwards; a row lists runs of cells from 180° W
eastwards, separated by spaces. A run is `.` (empty) or `<index>` with `!` after it for a border cell, then `*<count>`
when the run is longer than one cell. Every zone id is one of zone.tab (an id timezonefinder spells otherwise is
mapped through tzdata's links, e.g. backward's Europe/Kiev → Europe/Kyiv); the script fails on any other."""
import argparse
import os
import sys
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.path.join(ROOT, "Sources/CityPackModel/CityTimeZone+Table.swift")
GRID_TARGET = os.path.join(ROOT, "Sources/CityPackModel/CityTimeZone+Grid.swift")
GRID_STEP = 0.5
LATTICE = 4


def degrees(text, width):
    """ISO 6709 ±DDMM[SS] or ±DDDMM[SS] to degrees."""
    sign = -1 if text[0] == "-" else 1
    digits = text[1:]
    d = int(digits[:width])
    m = int(digits[width:width + 2])
    s = int(digits[width + 2:width + 4] or 0)
    return sign * (d + m / 60 + s / 3600)


def table(path):
    lines = []
    for line in open(path, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        countries, coords, zone = line.rstrip("\n").split("\t")[:3]
        split = max(coords.rfind("+"), coords.rfind("-"))
        lat, lon = coords[:split], coords[split:]
        lines.append(f"{zone}\t{degrees(lat, 2):.4f}\t{degrees(lon, 3):.4f}\t{countries}")
    return "\n".join(sorted(lines)) + "\n"


def tab_zones(path):
    """The zone ids of zone.tab."""
    return {line.split("\t")[2].strip() for line in open(path, encoding="utf-8")
            if not line.startswith("#") and line.strip()}


def links(path):
    """tzdata's links (`L TARGET ALIAS` lines of tzdata.zi, backward's included): alias → target."""
    result = {}
    if os.path.exists(path):
        for line in open(path, encoding="utf-8"):
            f = line.split()
            if len(f) == 3 and f[0] == "L":
                result[f[2]] = f[1]
    return result


def grid(known, alias):
    """The grid text and the timezonefinder version, or None when timezonefinder is not installed."""
    try:
        from importlib.metadata import version
        from timezonefinder import TimezoneFinder
    except ImportError:
        return None
    finder = TimezoneFinder()
    rows, cols = round(180 / GRID_STEP), round(360 / GRID_STEP)

    def land_zone(lat, lon):
        zone = finder.timezone_at_land(lat=lat, lng=lon)
        if zone is None or zone.startswith("Etc/"):
            return None
        seen = zone
        while zone not in known and zone in alias:
            zone = alias[zone]
        if zone not in known:
            sys.exit(f"timezonefinder's zone {seen} is neither in zone.tab nor a link to one")
        return zone

    cells = []
    for r in range(rows):
        south = -90 + r * GRID_STEP
        row = []
        for c in range(cols):
            west = -180 + c * GRID_STEP
            counts = Counter()
            for i in range(LATTICE):
                for j in range(LATTICE):
                    zone = land_zone(south + (i + 0.5) * GRID_STEP / LATTICE, west + (j + 0.5) * GRID_STEP / LATTICE)
                    if zone:
                        counts[zone] += 1
            if counts:
                # Most points; a tie goes to the smaller id.
                best = min(counts.items(), key=lambda kv: (-kv[1], kv[0]))[0]
                row.append((best, len(counts) > 1))
            else:
                row.append(None)
        cells.append(row)
    zones = sorted({cell[0] for row in cells for cell in row if cell})
    index = {zone: i for i, zone in enumerate(zones)}

    def run(cell, count):
        text = "." if cell is None else f"{index[cell[0]]}{'!' if cell[1] else ''}"
        return text if count == 1 else f"{text}*{count}"

    lines = [" ".join(zones)]
    for row in cells:
        runs, start = [], 0
        for c in range(1, cols + 1):
            if c == cols or row[c] != row[start]:
                runs.append(run(row[start], c - start))
                start = c
        lines.append(" ".join(runs))
    versions = f"timezonefinder {version('timezonefinder')}"
    try:
        versions += f", timezonefinder-data {version('timezonefinder-data')}"
    except Exception:
        pass
    return "\n".join(lines) + "\n", versions


def check_or_write(target, swift, check):
    if check:
        current = open(target, encoding="utf-8").read() if os.path.exists(target) else ""
        if current != swift:
            sys.exit(f"{target} is not current: run scripts/embed-timezones.py")
        return
    with open(target, "w", encoding="utf-8") as f:
        f.write(swift)
    print(target)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tab", default="/usr/share/zoneinfo/zone.tab")
    parser.add_argument("--zi", default="/usr/share/zoneinfo/tzdata.zi")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    text = table(args.tab)
    swift = "\n".join([
        "// Generated by scripts/embed-timezones.py from tzdata's zone.tab; do not edit.",
        "",
        "extension CityTimeZone {",
        "    /// One line per zone: `zone<TAB>lat<TAB>lon<TAB>countries` (the zone's principal location, ISO 3166 codes).",
        '    static let table = ####"""',
        text + '"""####',
        "}",
        "",
    ])
    check_or_write(TARGET, swift, args.check)

    generated = grid(tab_zones(args.tab), links(args.zi))
    if generated is None:
        print(f"timezonefinder is not installed (pip install timezonefinder): {GRID_TARGET} was not "
              + ("checked" if args.check else "written"), file=sys.stderr)
        return
    text, versions = generated
    step = f"{GRID_STEP:g}"
    swift = "\n".join([
        f"// Generated by scripts/embed-timezones.py from the zone boundaries of {versions}"
        " (timezone-boundary-builder); do not edit.",
        "",
        "extension CityTimeZone {",
        f"    /// Degrees per grid cell, in latitude and longitude.",
        f"    static let gridStep = {step}",
        "",
        "    /// The world in gridStep° cells: a line with the zone list, then one line per row from the south pole",
        "    /// northwards, each the row's runs from 180° W eastwards: `.` (no land) or a zone index, `!` for a border",
        f"    /// cell (more than one land zone among its {LATTICE} × {LATTICE} sample points), `*count` for a run of more than one.",
        '    static let grid = ####"""',
        text + '"""####',
        "}",
        "",
    ])
    check_or_write(GRID_TARGET, swift, args.check)


if __name__ == "__main__":
    main()
