#!/usr/bin/env python3
"""Refreshes templates/synonyms/osm-types.json (the translated names of OSM place types our categories map to), then
regenerates templates/synonyms.json with scripts/cldr-synonyms.py: the one command of the synonym pipeline.

    scripts/osm-type-synonyms.py [--deb FILE.deb | --json osm-types.json] [--check] [--cldr DIR]

Source: Debian's gnome-maps package ships, in its data GResource, `osm-types.json`: the name of each OSM type
(`amenity/pharmacy`) in some 60 locales, taken by GNOME Maps from the iD editor's tagging schema. JOSM was the first
choice, but Debian's josm and josm-l10n .lang files hold only JOSM's core strings: none of the preset names.

Without --deb or --json the script runs `apt-get download gnome-maps` into a temporary folder (nothing is installed)
and reads the GResource with `gresource` (libglib2.0-bin) or, failing that, with its own reader of the format.
Only the types named in templates/synonyms/osm-types-map.json are kept (the file is the input of cldr-synonyms.py,
so that the check of synonyms.json needs no gnome-maps).

--check   exit 1 when osm-types.json or synonyms.json differ from what would be written (nothing is written).
--report [REV]  write nothing; print which categories probe words name (in their locale, and in any locale as the
          readers match them), and per locale how many categories have a word, for the working tree's templates and,
          with REV (a git revision, e.g. HEAD), for that revision's.
"""
import argparse
import glob
import json
import os
import struct
import subprocess
import sys
import tempfile
import unicodedata
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAP = os.path.join(ROOT, "templates", "synonyms", "osm-types-map.json")
OUTPUT = os.path.join(ROOT, "templates", "synonyms", "osm-types.json")
RESOURCE = "/org/gnome/Maps/osm-types.json"


def gvdb_lookup(data, wanted):
    """The bytes of file `wanted` in a GResource (a GVDB hash table): read directly, for machines without gresource."""
    if data[:8] != b"GVariant":
        raise ValueError("not a GResource")
    start, end = struct.unpack_from("<II", data, 16)  # root hash table pointer
    n_bloom, n_buckets = struct.unpack_from("<II", data, start)
    n_bloom &= (1 << 27) - 1
    items = start + 8 + 4 * n_bloom + 4 * n_buckets
    count = (end - items) // 24
    entries = []
    for i in range(count):
        h, parent, k_start, k_size, kind, _, v_start, v_end = struct.unpack_from("<IIIHccII", data, items + 24 * i)
        entries.append((parent, data[k_start:k_start + k_size].decode("utf-8"), kind, v_start, v_end))

    def full(i):
        parent, key = entries[i][0], entries[i][1]
        return (full(parent) if parent != 0xFFFFFFFF else "") + key
    for i, (_, _, kind, v_start, v_end) in enumerate(entries):
        if kind == b"v" and full(i) == wanted:
            value = data[v_start:v_end]
            # variant (uuay): size, flags, bytes; the type string "(uuay)" follows the value after a NUL
            size, flags = struct.unpack_from("<II", value, 0)
            if flags & 1:  # G_RESOURCE_FLAGS_COMPRESSED: zlib; the variant's NUL and type string follow the stream
                return zlib.decompressobj().decompress(value[8:])[:size]
            return value[8:8 + size]
    raise KeyError(wanted)


def read_resource(gresource_file):
    try:
        r = subprocess.run(["gresource", "extract", gresource_file, RESOURCE], capture_output=True, check=True)
        return r.stdout
    except (OSError, subprocess.CalledProcessError):
        with open(gresource_file, "rb") as f:
            return gvdb_lookup(f.read(), RESOURCE)


def from_deb(deb):
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["dpkg-deb", "-x", deb, tmp], check=True)
        files = glob.glob(os.path.join(tmp, "usr/share/gnome-maps/*.data.gresource"))
        if not files:
            sys.exit(f"osm-type-synonyms: no data GResource in {deb}")
        return json.loads(read_resource(files[0]).decode("utf-8"))


def deb_version(deb):
    r = subprocess.run(["dpkg-deb", "-f", deb, "Version"], capture_output=True, text=True, check=True)
    return r.stdout.strip()


def render(doc):
    lines = ["{", f'  "format": {doc["format"]},', f'  "source": {json.dumps(doc["source"])},',
             f'  "generated_by": {json.dumps(doc["generated_by"])},', '  "types": {']
    items = list(doc["types"].items())
    for i, (t, titles) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        lines.append(f"    {json.dumps(t)}: {json.dumps(titles, ensure_ascii=False, sort_keys=True)}{comma}")
    lines += ["  }", "}"]
    return "\n".join(lines) + "\n"


PROBES = [("sv", w) for w in ["mat", "apotek", "snabbmat", "äta", "toalett", "bankomat", "kafé"]] + [
    ("de", "Apotheke"), ("de", "Geldautomat"), ("de", "Imbiss"), ("it", "farmacia"), ("it", "bancomat"), ("it", "bar"),
    ("fr", "pharmacie"), ("fr", "boulangerie"), ("es", "farmacia"), ("es", "cajero"), ("pt", "farmácia"),
    ("pl", "apteka"), ("pl", "bankomat"), ("nl", "apotheek"), ("fi", "apteekki"), ("ja", "薬局"), ("zh", "药店"),
    ("en", "bar")]


def fold(word):
    """Roughly the readers' folding: NFC, lower case, no combining marks."""
    decomposed = unicodedata.normalize("NFD", word.lower())
    return unicodedata.normalize("NFC", "".join(c for c in decomposed if not unicodedata.combining(c))).strip()


def words_by_locale(categories, synonyms):
    """{category: {locale: set(folded words)}}: labels and synonyms, as scripts/embed-templates.py groups them."""
    out = {}
    for c in categories:
        per = out.setdefault(c["id"], {})
        per.setdefault("und", set()).add(fold(c["id"].replace("_", " ")))
        for loc, label in c.get("labels", {}).items():
            per.setdefault(loc, set()).add(fold(label))
        for loc, ws in synonyms.get(c["id"], {}).items():
            per.setdefault(loc, set()).update(fold(w) for w in ws)
    return out


def load_templates(rev):
    if rev is None:
        read = lambda rel: open(os.path.join(ROOT, rel), encoding="utf-8").read()  # noqa: E731
    else:
        read = lambda rel: subprocess.run(["git", "-C", ROOT, "show", f"{rev}:{rel}"], capture_output=True,  # noqa: E731
                                          text=True, check=True).stdout
    cats = json.loads(read("templates/categories.json"))["categories"]
    return cats, json.loads(read("templates/synonyms.json"))["synonyms"]


def report(rev):
    tables = [("now", words_by_locale(*load_templates(None)))]
    if rev:
        tables.insert(0, (rev, words_by_locale(*load_templates(rev))))
    for name, table in tables:
        print(f"## probes ({name}): locale word -> categories in that locale | in any locale")
        for loc, w in PROBES:
            k = fold(w)
            here = sorted(c for c, per in table.items() if any(k in ws for l, ws in per.items()
                                                                if l.split("-")[0] == loc))
            anywhere = sorted(c for c, per in table.items() if any(k in ws for ws in per.values()))
            print(f"{loc}\t{w}\t{', '.join(here) or '-'}\t| {', '.join(anywhere) or '-'}")
    print("## categories with at least one word, per language (" + " -> ".join(n for n, _ in tables) + ")")
    langs = sorted({l.split("-")[0] for _, t in tables for per in t.values() for l in per} - {"und"})
    for lang in langs:
        counts = []
        for _, table in tables:
            counts.append(sum(1 for per in table.values() if any(l.split("-")[0] == lang and ws for l, ws in per.items())))
        print(f"{lang}\t" + " -> ".join(str(n) for n in counts) + f"\tof {len(tables[-1][1])}")


def main():
    parser = argparse.ArgumentParser(description="Refresh osm-types.json from Debian gnome-maps, then synonyms.json.")
    parser.add_argument("--deb", help="a gnome-maps .deb (default: apt-get download gnome-maps)")
    parser.add_argument("--json", help="an osm-types.json already extracted (source version unknown)")
    parser.add_argument("--cldr", default="/usr/share/unicode/cldr")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--report", nargs="?", const="", metavar="REV")
    args = parser.parse_args()
    if args.report is not None:
        report(args.report or None)
        return 0
    with open(MAP, encoding="utf-8") as f:
        types = sorted({t for ts in json.load(f)["categories"].values() for t in ts})
    tmp = None
    if args.json:
        with open(args.json, encoding="utf-8") as f:
            data = json.load(f)
        source = "GNOME Maps osm-types.json (iD tagging schema names)"
    else:
        deb = args.deb
        if not deb:
            tmp = tempfile.TemporaryDirectory()
            subprocess.run(["apt-get", "download", "gnome-maps"], cwd=tmp.name, check=True)
            deb = glob.glob(os.path.join(tmp.name, "gnome-maps_*.deb"))[0]
        data = from_deb(deb)
        source = f"GNOME Maps osm-types.json (iD tagging schema names), Debian gnome-maps {deb_version(deb)}"
    missing = [t for t in types if t not in data]
    if missing:
        print(f"osm-type-synonyms: types not in the source: {', '.join(missing)}", file=sys.stderr)
    doc = {"format": 1, "source": source,
           "generated_by": "scripts/osm-type-synonyms.py for the types of templates/synonyms/osm-types-map.json; do not edit by hand",
           "types": {t: data[t]["title"] for t in types if t in data}}
    text = render(doc)
    json.loads(text)
    try:
        with open(OUTPUT, encoding="utf-8") as f:
            current = f.read()
    except OSError:
        current = None
    if args.check:
        if current != text:
            print("osm-type-synonyms: templates/synonyms/osm-types.json is stale: run scripts/osm-type-synonyms.py",
                  file=sys.stderr)
            return 1
        return subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "cldr-synonyms.py"), "--cldr", args.cldr,
                               "--check"]).returncode
    if current != text:
        with open(OUTPUT, "w", encoding="utf-8") as f:
            f.write(text)
    print(f"osm-type-synonyms: {os.path.relpath(OUTPUT, ROOT)}: {len(doc['types'])} types ({source})")
    return subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "cldr-synonyms.py"), "--cldr", args.cldr]).returncode


if __name__ == "__main__":
    sys.exit(main())
