#!/usr/bin/env python3
"""What an install and a one-release update cost an app, request by request, as docs/HOSTING.md serves a site.

    scripts/update-cost.py SITE CITY [--from N] [--locale en]

SITE is an output folder (or a site) holding two releases of CITY (the second listing a delta from --from, default
the data version before the current one). Counted for both pack libraries:

- Swift (native): catalog.json, the manifest the catalog names, then the pack (install) or the delta (update); an
  update fetches the catalog's manifest patch from the base version instead of the manifest when there is one.
- web: catalog.json, the manifest, every web part and chunk the version needs (in one request when the manifest
  names a bundle: the same bytes) and the string table of one locale (install); for the update, the manifest (or
  its patch) and the web files of the new version the old one did not have.

JSON is counted twice: as stored ("gzip off", the configuration HOSTING.md had before) and gzip'd at nginx's
level 6 ("gzip on; gzip_types application/json", HOSTING.md now); .gz and .delta files are sent as they are. Prints
one line per library and configuration, and the update as a share of the install.
"""
import argparse
import gzip
import json
import os
import sys


def size(site, path, json_gzip):
    data = open(os.path.join(site, path), "rb").read()
    if json_gzip and path.endswith(".json"):
        return len(gzip.compress(data, 6))
    return len(data)


def web_files(manifest):
    out = []
    for part in manifest.get("web", {}).get("parts", []):
        out.append(part["path"])
        out += [c["path"] for c in part.get("chunks", []) or []]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("site")
    ap.add_argument("city")
    ap.add_argument("--from", dest="base", type=int)
    ap.add_argument("--locale", default="en")
    args = ap.parse_args()
    site = args.site
    catalog = json.load(open(os.path.join(site, "catalog.json")))
    entry = next(p for p in catalog["packs"] if p["id"] == args.city)
    folder = os.path.dirname(entry["manifest"])
    manifest = json.load(open(os.path.join(site, entry["manifest"])))
    base = args.base or manifest["dataVersion"] - 1
    delta = next((d for d in manifest.get("deltas") or [] if d["from"] == base), None)
    old_path = os.path.join(site, folder, f"{args.city}-{base}.manifest.json")
    old = json.load(open(old_path)) if os.path.exists(old_path) else None
    rel = lambda p: os.path.join(folder, p)
    for json_gzip in (False, True):
        label = "gzip on " if json_gzip else "gzip off"
        cat = size(site, "catalog.json", json_gzip)
        man = size(site, entry["manifest"], json_gzip)
        patch = next((p for p in entry.get("manifestPatches") or [] if p["from"] == base), None)
        man_update = size(site, patch["path"], json_gzip) if patch else man
        swift_install = cat + man + entry["bytes"]
        swift_update = cat + man_update + (delta["bytes"] if delta else entry["bytes"])
        strings = manifest.get("web", {}).get("strings", {})
        table = strings.get(args.locale) or next(iter(strings.values()), None)
        all_tables = sum(size(site, rel(p), json_gzip) for p in strings.values())
        files = web_files(manifest)
        web_install = cat + man + sum(os.path.getsize(os.path.join(site, rel(p))) for p in files)
        web_install_one = web_install + (size(site, rel(table), json_gzip) if table else 0)
        web_install_all = web_install + all_tables
        if old is None:
            print(f"{args.city}: version {base}'s manifest is not in {site}: publish both releases first", file=sys.stderr)
            return 1
        new_files = sorted(set(files) - set(web_files(old)))
        data = sum(os.path.getsize(os.path.join(site, rel(p))) for p in new_files)
        web_update = cat + man_update + data
        what = f"manifest patch {man_update}" if patch else f"manifest {man_update}"
        print(f"{args.city} {label} swift: install {swift_install} B (catalog {cat}, manifest {man}, pack {entry['bytes']}); "
              f"update {swift_update} B ({what}, delta {delta['bytes'] if delta else 'none'}) = {100 * swift_update / swift_install:.1f} %")
        print(f"{args.city} {label} web:   install {web_install_one} B with one locale's strings ({web_install_all} B with all); "
              f"update {web_update} B (catalog {cat}, {what}, {len(new_files)} new files {data} B) = "
              f"{100 * web_update / web_install_one:.1f} % of one-locale install, {100 * web_update / web_install_all:.1f} % of all-locales install")
    return 0


if __name__ == "__main__":
    sys.exit(main())
