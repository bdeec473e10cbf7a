#!/usr/bin/env bash
# Re-measures every current figure that README.md and docs/ quote, and prints each block as it would appear.
#
#   scripts/doc-figures.sh            measure and print the blocks
#   scripts/doc-figures.sh --write    measure and rewrite the blocks in place (then review `git diff`)
#   scripts/doc-figures.sh --list     name each block and the file that holds it
#
# A figure block in a Markdown file sits between `<!-- figures:NAME -->` and `<!-- /figures:NAME -->`; its first
# line names the command that produced it, the date and the machine. Every block is made here from a release
# build (`swift build -c release` first) and the real data in ../shared/data (CITYPACK_SHARED_DATA overrides);
# blocks whose tool is missing (node, osmium) are left as they are, with a note. Builds use
# SOURCE_DATE_EPOCH=1700000000 so sizes are those of reproducible packs. Figures that record a one-off experiment
# (rejected designs, fuzzing rounds) are not blocks: the text gives their date and command, and they are not
# expected to change. Takes about 3 minutes on 2 cores.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
mode=print
case "${1:-}" in
  --write) mode=write ;;
  --list) mode=list ;;
  "") ;;
  *) echo "usage: scripts/doc-figures.sh [--write | --list]" >&2; exit 64 ;;
esac

blocks=(osm-bench:README.md web-sizes:docs/WEB.md web-bench:docs/WEB.md web-agreement:docs/WEB.md
  pack-size:docs/RELEASES.md gtfs-memory:docs/HOSTILE-INPUT.md zip-ratios:docs/HOSTILE-INPUT.md)
if [ "$mode" = list ]; then printf '%s\n' "${blocks[@]}" | tr ':' '\t'; exit 0; fi

bin="$root/.build/release/citypack"
[ -x "$bin" ] || { echo "doc-figures: build first: swift build -c release --static-swift-stdlib --product citypack" >&2; exit 66; }
data="${CITYPACK_SHARED_DATA:-$root/../shared/data}"
[ -d "$data" ] || { echo "doc-figures: the real data is missing: $data" >&2; exit 66; }
work="$(mktemp -d "${TMPDIR:-/tmp}/citypack-doc-figures.XXXXXX")"
trap 'rm -rf "$work"' EXIT
today="$(date -u +%Y-%m-%d)"
machine="$(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), $(swift --version 2>/dev/null | head -1 | sed 's/ (.*//')"
export SOURCE_DATE_EPOCH=1700000000
mkdir -p "$work/blocks"

# header NAME COMMAND: the first line of a block.
header() { printf '_Measured %s by `%s` (%s; citypack from a release build). Refresh: `scripts/doc-figures.sh --write`._\n\n' "$today" "$2" "$machine" > "$work/blocks/$1"; }
fence() { { echo '```text'; cat; echo '```'; } >> "$work/blocks/$1"; }

# The cities the web figures use.
"$bin" init "$work/in/li" --osm "$data/osm/liechtenstein-2024.osm.gz" --id liechtenstein >/dev/null 2>&1
"$bin" init "$work/in/milan" --osm "$data/osm/milan-2015.osm.gz" --gtfs "$data/gtfs/milan-atm-2015.zip" --id milan \
  --locales it,en >/dev/null 2>&1
for city in inputs/monaco "$work/in/li" "$work/in/milan"; do
  "$bin" build "$city" --output "$work/out" --quiet >/dev/null 2>&1 || { echo "doc-figures: build of $city failed" >&2; exit 1; }
done

echo "doc-figures: citypack bench (OSM build vs xmllint and osmium, nearby)…" >&2
header osm-bench "citypack bench --osm ../shared/data/osm/liechtenstein-2024.osm.gz --runs 5"
"$bin" bench --osm "$data/osm/liechtenstein-2024.osm.gz" --runs 5 2>/dev/null | fence osm-bench

echo "doc-figures: web part sizes…" >&2
header web-sizes "citypack build (SOURCE_DATE_EPOCH=1700000000), sizes from each manifest"
python3 - "$work/out" >> "$work/blocks/web-sizes" <<'EOF'
import json, os, sys
out = sys.argv[1]
rows = [("Monaco (`inputs/monaco`)", "monaco"), ("Liechtenstein (`liechtenstein-2024.osm.gz`)", "liechtenstein"),
        ("Milan + ATM GTFS (`milan-2015.osm.gz`, `milan-atm-2015.zip`)", "milan")]
def n(v): return f"{v:,}".replace(",", " ") if v is not None else "—"
print("| city | POIs | pack.gz | places | search | editorial | transit | web total | files | manifest.json |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for label, city in rows:
    m = json.load(open(f"{out}/{city}/manifest.json"))
    # A part's bytes: its head and its chunks (web format 2).
    files = {p["name"]: [p] + p.get("chunks", []) for p in m.get("web", {}).get("parts", [])}
    parts = {k: sum(f["bytes"] for f in v) for k, v in files.items()}
    pois = m.get("counts", {}).get("pois")
    size = os.path.getsize(f"{out}/{city}/manifest.json")
    print(f"| {label} | {n(pois)} | {n(m['artifact']['bytes'])} | " + " | ".join(n(parts.get(k)) for k in ["places", "search", "editorial", "transit"])
          + f" | {n(sum(parts.values()))} | {sum(len(v) for v in files.values())} | {n(size)} |")
EOF

node_bin="$(command -v node || true)"
if [ -n "$node_bin" ]; then
  echo "doc-figures: web reader benchmark…" >&2
  header web-bench "node clients/web/bench.mjs outputs/CITY/manifest.json"
  for city in liechtenstein monaco; do node clients/web/bench.mjs "$work/out/$city/manifest.json" | sed "s|$work/out|outputs|"; done | fence web-bench
  echo "doc-figures: web reader agreement (node --test clients/web/test/)…" >&2
  header web-agreement "node --test clients/web/test/ (AGREEMENT lines)"
  CITYPACK_BIN="$bin" node --test clients/web/test/ 2>&1 | grep -oE 'AGREEMENT [^\\]*: [0-9]+/[0-9]+' | sort -u | fence web-agreement
else
  echo "doc-figures: node not found: web-bench and web-agreement left as they are" >&2
  rm -f "$work/blocks/web-bench" "$work/blocks/web-agreement"
fi

if command -v osmium >/dev/null; then
  echo "doc-figures: pack size vs GeoJSONSeq…" >&2
  header pack-size "citypack bench --pack-size --osm ../shared/data/osm/liechtenstein-2024.osm.gz"
  "$bin" bench --pack-size --osm "$data/osm/liechtenstein-2024.osm.gz" 2>/dev/null | sed "s|$data|../shared/data|g" | fence pack-size
else
  echo "doc-figures: osmium not found: pack-size left as it is" >&2
fi

echo "doc-figures: GTFS memory (bomb, 1 M generated rows, the shared feeds)…" >&2
header gtfs-memory "citypack bench --gtfs-memory --gtfs-memory-rows 1000000"
"$bin" bench --gtfs-memory --gtfs-memory-rows 1000000 2>/dev/null | fence gtfs-memory

echo "doc-figures: compression ratios of the shared feeds…" >&2
header zip-ratios "python3 zipfile over ../shared/data/gtfs/*.zip: uncompressed / compressed bytes of each entry"
python3 - "$data/gtfs" >> "$work/blocks/zip-ratios" <<'EOF'
import glob, os, sys, zipfile
best = []
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.zip"))):
    with zipfile.ZipFile(path) as z:
        for i in z.infolist():
            if i.compress_size > 0 and i.file_size > 4096:
                best.append((i.file_size / i.compress_size, os.path.basename(path), i.filename))
best.sort(reverse=True)
import zlib
zeros = bytes(1 << 26)
d = zlib.compressobj(6, zlib.DEFLATED, -15)
packed = d.compress(zeros) + d.flush()
print("| feed | entry | ratio |")
print("|---|---|---:|")
for ratio, feed, name in best[:5]:
    print(f"| {feed} | {name} | {ratio:.0f}× |")
print(f"| (64 MiB of zeros, raw deflate level 6) | | {len(zeros) / len(packed):.0f}× |")
EOF

# Print or write the blocks.
python3 - "$mode" "$work/blocks" "${blocks[@]}" <<'EOF'
import os, re, sys
mode, folder, specs = sys.argv[1], sys.argv[2], sys.argv[3:]
for spec in specs:
    name, file = spec.split(":")
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        continue
    body = open(path, encoding="utf-8").read().rstrip("\n") + "\n"
    if mode == "print":
        print(f"== {name} ({file})\n{body}")
        continue
    text = open(file, encoding="utf-8").read()
    pattern = re.compile(r"(<!-- figures:%s -->\n).*?(<!-- /figures:%s -->)" % (re.escape(name), re.escape(name)), re.S)
    if not pattern.search(text):
        sys.exit(f"doc-figures: {file} has no block {name}")
    text = pattern.sub(lambda m: m.group(1) + body + m.group(2), text)
    open(file, "w", encoding="utf-8").write(text)
    print(f"doc-figures: rewrote {name} in {file}")
EOF
