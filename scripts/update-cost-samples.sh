#!/bin/bash
# What a one-POI update costs, over N different POIs of a city, every request counted as docs/HOSTING.md serves
# the site (scripts/update-cost.py on each pair of releases).
#
#   scripts/update-cost-samples.sh CITY_FOLDER N [CITYPACK]
#
# Builds CITY_FOLDER once (version 1), then N times: a copy of that output, one POI renamed ("Renamed " before its
# name: the k-th of the restaurants, cafés, bars, pharmacies and fast-food places carrying a name, picked with a
# stride through the list), built again (version 2), and prints update-cost.py's "gzip on" lines for it. The city's
# OSM source must be a .osm.gz in the folder. Temporary files go under ${TMPDIR:-/tmp}.
set -euo pipefail
SRC=${1:?usage: scripts/update-cost-samples.sh CITY_FOLDER N [CITYPACK]}
N=${2:?usage: scripts/update-cost-samples.sh CITY_FOLDER N [CITYPACK]}
BIN=${3:-$(dirname "$0")/../.build/debug/citypack}
HERE=$(cd "$(dirname "$0")" && pwd)
CITY=$(sed -n 's/^id: *//p' "$SRC/city.yaml" | tr -d '"' | head -1)
W=$(mktemp -d "${TMPDIR:-/tmp}/update-samples.XXXXXX")
trap 'rm -rf "$W"' EXIT
export SOURCE_DATE_EPOCH=1700000000
cp -r "$SRC" "$W/in"
"$BIN" build "$W/in" --output "$W/base" --quiet >/dev/null 2>&1 || { echo "building $SRC failed" >&2; exit 1; }
for k in $(seq 1 "$N"); do
  rm -rf "$W/out" "$W/in2"
  cp -r "$W/base" "$W/out"
  cp -r "$SRC" "$W/in2"
  OSM=$(ls "$W"/in2/*.osm.gz | head -1)
  python3 - "$OSM" "$k" <<'PY'
import gzip, re, sys
path, k = sys.argv[1], int(sys.argv[2])
text = gzip.open(path).read().decode()
hits = []
for node in re.finditer(r'<node\b[^>]*>(.*?)</node>', text, re.S):
    body = node.group(1)
    if re.search(r'k="amenity" v="(restaurant|cafe|bar|pharmacy|fast_food)"', body):
        m = re.search(r'<tag k="name" v="([^"]+)"', body)
        if m:
            hits.append(node.start(1) + m.start(1))
at = hits[(k * 7919) % len(hits)]
gzip.open(path, 'wb').write((text[:at] + 'Renamed ' + text[at:]).encode())
PY
  "$BIN" build "$W/in2" --output "$W/out" --quiet >/dev/null 2>&1 || { echo "sample $k: the build failed" >&2; exit 1; }
  python3 "$HERE/update-cost.py" "$W/out" "$CITY" | grep 'gzip on' | sed "s/^/sample $k: /"
done
