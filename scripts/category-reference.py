#!/usr/bin/env python3
"""An independent check of "every category a place is" (issue 37): recomputes each POI's categories from the raw OSM
tags (osmium) with every rule of templates/categories.json — main rules, `also` rules and attributes — and compares
them with the pack, then checks that `citypack query --search <category> --near P` answers the reference's nearest
place of that category (brute force over the pack's places, great-circle) from random points.

    scripts/category-reference.py OSM_FILE [--citypack BIN] [--points N] [--seed S] [--json]

Builds the file as a city of its own (init + build into a temporary folder). Prints, per category, the places the
reference and the pack file under it, how many differ, and nearest-first agreement; exit 1 on any disagreement.
Needs the osmium CLI (Debian osmium-tool)."""
import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def rules_of(categories_json):
    """[(id, attribute, [rules])], a rule being [(key, values or None)]."""
    out = []
    for c in json.load(open(categories_json, encoding="utf-8"))["categories"]:
        rules = []
        for rule in c["rules"] + c.get("also", []):
            conds = []
            for key, spec in rule.items():
                values = [spec] if isinstance(spec, str) else spec
                conds.append((key, None if "*" in values else set(values)))
            rules.append(conds)
        out.append((c["id"], c["priority"], bool(c.get("attribute")), c["rules"], rules))
    return out


def matches(conds, tags):
    return all(k in tags and (vals is None or tags[k] in vals) for k, vals in conds)


def reference_categories(profile, tags):
    """Every category whose rules match: the main one first (lowest priority of a non-attribute main rule)."""
    main = None
    for cid, prio, attribute, main_rules, _ in sorted(profile, key=lambda c: (c[1], c[0])):
        if attribute:
            continue
        if any(matches([(k, None if (isinstance(v, list) and "*" in v) or v == "*" else set([v] if isinstance(v, str) else v)) for k, v in r.items()], tags) for r in main_rules):
            main = cid
            break
    if main is None:
        return None
    return [main] + sorted(cid for cid, _, _, _, rules in profile if cid != main and any(matches(r, tags) for r in rules))


def opl_tags(osm_file, wanted):
    """{ref: tags} of the elements named in `wanted` (n123, w45, r6), from `osmium cat -f opl`."""
    out = {}
    proc = subprocess.Popen(["osmium", "cat", "-f", "opl", osm_file], stdout=subprocess.PIPE, text=True)
    for line in proc.stdout:
        fields = line.rstrip("\n").split(" ")
        ref = fields[0]
        if ref not in wanted:
            continue
        tags = {}
        for f in fields[1:]:
            if f.startswith("T") and len(f) > 1:
                for pair in f[1:].split(","):
                    if "=" in pair:
                        k, v = pair.split("=", 1)
                        tags[unescape(k)] = unescape(v)
        out[ref] = tags
    proc.wait()
    return out


def unescape(text):
    """OPL escapes: %XXXX% (hex code point)."""
    out, i = [], 0
    while i < len(text):
        if text[i] == "%":
            j = text.index("%", i + 1)
            out.append(chr(int(text[i + 1:j], 16)))
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def distance(lat1, lon1, lat2, lon2):
    r = 6371008.8
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * r * math.asin(min(1, math.sqrt(a)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("osm")
    parser.add_argument("--citypack", default=os.path.join(ROOT, ".build/debug/citypack"))
    parser.add_argument("--points", type=int, default=20)
    parser.add_argument("--seed", type=int, default=37)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    profile = rules_of(os.path.join(ROOT, "templates/categories.json"))
    tmp = tempfile.mkdtemp(prefix="category-reference-")
    city = os.path.join(tmp, "city")
    subprocess.run([args.citypack, "init", city, "--osm", os.path.abspath(args.osm), "--id", "ref"], check=True, capture_output=True)
    subprocess.run([args.citypack, "build", city, "--output", os.path.join(tmp, "out"), "--quiet"], check=True, capture_output=True)
    pack = os.path.join(tmp, "out", "ref")
    rows = json.loads(subprocess.run([args.citypack, "inspect", pack, "--pois", "--format", "json"], check=True, capture_output=True, text=True).stdout)["results"]
    pois = [r for r in rows if r["kind"] == "poi"]
    tags = opl_tags(args.osm, {r["osm"] for r in pois})
    differ = []
    per_category = {}
    for r in pois:
        ref = reference_categories(profile, tags.get(r["osm"], {}))
        got = [r["category"]] + sorted(c for c in r["categories"][1:])
        if ref is None or ref[0] != got[0] or set(ref) != set(got):
            differ.append({"osm": r["osm"], "pack": got, "reference": ref})
        for c in (ref or []):
            per_category.setdefault(c, []).append(r)
    # Nearest first: the reference's nearest place of each category from random points in the bbox.
    rand = random.Random(args.seed)
    lats = [r["lat"] for r in pois]
    lons = [r["lon"] for r in pois]
    nearest = {}
    for cid, members in sorted(per_category.items()):
        agree = 0
        for _ in range(args.points):
            lat, lon = rand.uniform(min(lats), max(lats)), rand.uniform(min(lons), max(lons))
            want = min(members, key=lambda r: (distance(lat, lon, r["lat"], r["lon"]), r["id"]))
            out = json.loads(subprocess.run(
                [args.citypack, "query", pack, "--search", cid.replace("_", " "), "--near", f"{lat},{lon}", "--limit", "1", "--locale", "en", "--format", "json"],
                check=True, capture_output=True, text=True).stdout)["results"]
            got = out[0] if out else None
            d_want = distance(lat, lon, want["lat"], want["lon"])
            # The same place, or one of the category at the same distance (ties), or its linked stop.
            if got and (got["id"] == want["id"] or got.get("linked_id") == want["id"] or (cid in got["categories"] and abs(got.get("distance_m", -1) - d_want) < 0.01)):
                agree += 1
        nearest[cid] = {"places": len(members), "agree": agree, "points": args.points}
    report = {"file": args.osm, "pois": len(pois), "categories_differ": len(differ), "examples": differ[:10], "nearest": nearest}
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print(f"{args.osm}: {len(pois)} POIs; categories equal to the reference for {len(pois) - len(differ)}, differ for {len(differ)}")
        for d in differ[:10]:
            print(f"  {d['osm']}: pack {d['pack']} reference {d['reference']}")
        for cid, n in nearest.items():
            print(f"  {cid:18} {n['places']:5} places  nearest-first {n['agree']}/{n['points']}")
    ok = not differ and all(n["agree"] == n["points"] for n in nearest.values())
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
