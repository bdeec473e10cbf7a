#!/usr/bin/env python3
"""Checks Mapbox Vector Tiles with an independent decoder (mapbox-vector-tile) and shapely.

    scripts/check-tiles.py [--buffer UNITS] [--quiet] PATH

PATH is a folder of tiles laid out as <z>/<x>/<y>.mvt (or .pbf; XYZ rows) or an MBTiles file (SQLite, table
`tiles` with zoom_level, tile_column, tile_row (TMS), tile_data). Tile data may be gzip-compressed or not.

For every tile: it must decode; every layer's version must be 2; every feature's coordinates must lie within
[-buffer, extent + buffer] (buffer in tile units, default 64); every polygon's exterior ring must have positive
area by the surveyor's formula in tile coordinates (y down) and its holes negative (MVT 2.1 §4.3.4.4; the decoder
itself only groups rings by the first one's sign); every polygon must be valid by shapely's
`is_valid` as decoded (no repairing: invalid ones are reported with shapely's reason). Prints the count of tiles
and, per zoom and layer, the features by geometry type; then each failure (the first 20 of each kind in full).

Needs `pip install mapbox-vector-tile shapely` (a virtual environment will do). Written for CityPackTiles
(Sources/CityPackTiles); `CITYPACK_TILES_OUT=DIR swift test --filter SampleTilesTests`
writes sample tiles to check. Exit codes: 0 all good, 1 a check failed, 2 usage or a missing module.
"""
import argparse
import collections
import gzip
import os
import sqlite3
import sys

try:
    import mapbox_vector_tile
    from shapely.geometry import shape
    from shapely.validation import explain_validity
except ImportError as e:  # pragma: no cover
    print(f"check-tiles: {e}; pip install mapbox-vector-tile shapely", file=sys.stderr)
    sys.exit(2)


def read_tiles(path):
    """Yields (z, x, y, bytes) with XYZ rows, from a folder or an MBTiles file."""
    if os.path.isdir(path):
        for root, _dirs, files in os.walk(path):
            for name in files:
                stem, ext = os.path.splitext(name)
                if ext not in (".mvt", ".pbf"):
                    continue
                rel = os.path.relpath(os.path.join(root, stem), path).split(os.sep)
                if len(rel) != 3 or not all(p.isdigit() for p in rel):
                    continue
                z, x, y = map(int, rel)
                with open(os.path.join(root, name), "rb") as f:
                    yield z, x, y, f.read()
        return
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        for z, x, row, data in db.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles"):
            yield z, x, (1 << z) - 1 - row, bytes(data)
    finally:
        db.close()


def coordinates(geometry):
    """Every (x, y) of a decoded GeoJSON-like geometry."""
    def walk(c):
        if isinstance(c, (list, tuple)) and c and isinstance(c[0], (int, float)):
            yield c
        else:
            for item in c:
                yield from walk(item)
    yield from walk(geometry["coordinates"])


def doubled_area(ring):
    """Twice a ring's signed area by the surveyor's formula in tile coordinates (y down): MVT exteriors are > 0."""
    return sum(ring[i][0] * ring[(i + 1) % len(ring)][1] - ring[(i + 1) % len(ring)][0] * ring[i][1]
               for i in range(len(ring)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path")
    parser.add_argument("--buffer", type=float, default=64, help="tile units allowed outside the tile (default 64)")
    parser.add_argument("--quiet", action="store_true", help="only failures and the summary line")
    args = parser.parse_args()
    if not os.path.exists(args.path):
        parser.error(f"{args.path}: no such file or folder")

    counts = collections.defaultdict(collections.Counter)  # (zoom, layer) -> type -> features
    failures = collections.defaultdict(list)  # kind -> messages
    tiles = 0
    for z, x, y, data in sorted(read_tiles(args.path)):
        tiles += 1
        where = f"{z}/{x}/{y}"
        if data[:2] == b"\x1f\x8b":
            data = gzip.decompress(data)
        try:
            # y_coord_down: keep tile coordinates as stored (y down), no flipping.
            decoded = mapbox_vector_tile.decode(data, default_options={"y_coord_down": True})
        except Exception as e:  # noqa: BLE001 (any decoder failure is a finding)
            failures["decode"].append(f"{where}: {e}")
            continue
        for name, layer in decoded.items():
            extent = layer.get("extent", 4096)
            if layer.get("version") != 2:
                failures["version"].append(f"{where} {name}: version {layer.get('version')}")
            low, high = -args.buffer, extent + args.buffer
            for feature in layer["features"]:
                geometry = feature["geometry"]
                kind = geometry["type"]
                counts[(z, name)][kind] += 1
                bad = [c for c in coordinates(geometry) if not (low <= c[0] <= high and low <= c[1] <= high)]
                if bad:
                    failures["range"].append(f"{where} {name} id={feature.get('id')}: {len(bad)} points outside "
                                             f"[{low:g}, {high:g}], first {bad[0]}")
                if kind in ("Polygon", "MultiPolygon"):
                    polygons = [geometry["coordinates"]] if kind == "Polygon" else geometry["coordinates"]
                    for rings in polygons:
                        signs = [doubled_area(r) > 0 for r in rings]
                        if signs != [True] + [False] * (len(rings) - 1):
                            failures["winding"].append(f"{where} {name} id={feature.get('id')}: ring areas "
                                                       f"{[doubled_area(r) for r in rings]} (want +, then -)")
                    polygon = shape(geometry)
                    if not polygon.is_valid:
                        failures["invalid"].append(f"{where} {name} id={feature.get('id')}: "
                                                   f"{explain_validity(polygon)}")

    print(f"{tiles} tiles in {args.path}")
    if not args.quiet:
        print(f"{'zoom':>4}  {'layer':<20} features by type")
        for (z, name), types in sorted(counts.items()):
            detail = ", ".join(f"{t} {n}" for t, n in sorted(types.items()))
            print(f"{z:>4}  {name:<20} {sum(types.values()):>6}  ({detail})")
    for kind, messages in sorted(failures.items()):
        print(f"FAIL {kind}: {len(messages)}")
        for m in messages[:20]:
            print(f"  {m}")
    if tiles == 0:
        print("FAIL no tiles found")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
