#!/usr/bin/env bash
# Builds every city of ../shared/data (and the bundled Monaco) with the given citypack binary and prints the
# SHA-256 of every artifact (pack, manifests, catalog, copy tables, report.json), one "city path sha256" line
# each, sorted. Used to prove that a refactoring leaves every output byte-identical:
#   scripts/artifact-hashes.sh .build/release/citypack > before.txt; …; diff before.txt after.txt
# build-stats.json (wall-clock timings) and report.html (embeds them) are left out.
set -euo pipefail
bin=$(realpath "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
data=${SHARED_DATA:-$root/../shared/data}
[ -d "$data" ] || { echo "no shared data at $data" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SOURCE_DATE_EPOCH=1780272000
# The repository's templates, also for a binary built elsewhere (init and build would otherwise find none and the
# script would print nothing).
export CITYPACK_TEMPLATES=${CITYPACK_TEMPLATES:-$root/templates}
cd "$work"
cities=()
add() { # id, extra init args...
  local id=$1; shift
  "$bin" init "inputs/$id" --id "$id" --locales en,fr,fi "$@" >/dev/null 2>&1
  cities+=("$id")
}
add monaco2021 --osm "$data/osm/monaco-2021.osm"
add liechtenstein --osm "$data/osm/liechtenstein-2024.osm.gz"
add milan --osm "$data/osm/milan-2015.osm.gz" --gtfs "$data/gtfs/milan-atm-2015.zip"
add andorra --osm "$data/osm/andorra-2021.osm.gz"
add monacoosrm --osm "$data/osm/monaco-osrm-2016-fullmeta.osm.gz"
add portland --osm "$data/osm/portland-central-2015.osm.gz" --gtfs "$data/gtfs/trimet-portland-2routes-2021.zip"
add peterhof --osm "$data/osm/peterhof-api-export-2011.osm"
add nyc --gtfs "$data/gtfs/nyc-subway-2025.zip"
add cairns --gtfs "$data/gtfs/cairns-2014.zip"
cp -R "$root/inputs/monaco" inputs/monaco
cp -R "$root/templates" templates
cities+=(monaco)
for id in "${cities[@]}"; do
  "$bin" build "inputs/$id" --output outputs --quiet >/dev/null 2>&1 || echo "$id build-exit $?" >&2
done
cd outputs
find . -type f ! -name build-stats.json ! -name report.html ! -name '.*' | sort | while read -r f; do
  echo "${f#./} $(sha256sum "$f" | cut -d' ' -f1)"
done
