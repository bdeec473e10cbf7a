#!/usr/bin/env python3
"""Regenerates templates/synonyms.json: the hand-made synonyms plus keywords from Unicode CLDR's annotations.

    scripts/cldr-synonyms.py [--cldr DIR] [--check] [--report]

Inputs (hand-made, reviewed):
  templates/synonyms/manual.json    hand-made synonyms, {"format": 1, "synonyms": {category: {locale: [words]}}}
  templates/synonyms/cldr-map.json  category -> CLDR symbols, per-locale block list, thresholds (each with a reason)
  templates/categories.json         category ids, and the labels whose words count as claimed by their category
  DIR/common/annotations/*.xml      CLDR annotations (default DIR /usr/share/unicode/cldr: Debian unicode-cldr-core)
  templates/synonyms/osm-types-map.json  category -> OSM types, locale names, per-locale block list (each with a reason)
  templates/synonyms/osm-types.json  the OSM types' names per locale (GNOME Maps, from the iD tagging schema), written
                                    by scripts/osm-type-synonyms.py, which then runs this script: the one command

Output: templates/synonyms.json, for every category and locale the manual words first, then CLDR's, then the OSM type
names' (each NFC, lower-cased, de-duplicated). An OSM type name ('Apotheke', 'Bus Station / Terminal') gives its parts
(split at '/', ',', '、', '・'; parentheses and the map's `strip` suffixes left out) and each part is kept unless
  - it is a single letter (not a CJK ideograph nor a Hangul syllable);
  - the map's block list names it (as CLDR's): then it also takes the word from no other category;
  - it names another category in that language: a label or manual synonym of another category (hand-made words
    win), or the name of another category's type (a name of two categories goes to neither);
  - the locale is a regional variant and its base language already has the word.
A CLDR keyword that is the OSM type name of another category in that language leaves as for a label (above).

Before the OSM names:

A CLDR keyword of a mapped symbol is kept unless
  - its draft status is not accepted (CLDR's own default: approved and contributed only);
  - it is a single letter (a single CJK ideograph is a word and stays: ja 駅 'station');
  - it is generic: a keyword of at least `generic_min_symbols` symbols in that locale ('vehicle', 'building', 'face'),
    unless it is the symbol's own name or a label or manual synonym of the category in some language;
  - it also belongs to another category: a keyword of another category's symbols (mapped or claimed), or a label or
    manual synonym of another category in that language. Such a keyword stays only where it is the symbol's own name
    (CLDR `type="tts"`), e.g. pt 'banco' stays with bank (🏦 is named 'banco') and leaves atm and currency exchange;
  - it shares a keyword with a `subtract` symbol of the category ('knife' is also 🔪's, so it names the cutlery);
  - the category's mode is "common" (post office: 🏤 European, 🏣 Japanese) and not every symbol has it ('European');
  - the block list names it (whole keyword, or a word of it) for the locale or for every locale ("*").
A locale is a CLDR base language (pt, ja, zh, fi); a regional variant (pt_PT, zh_Hant, es_419) is written as a BCP 47
tag (pt-PT, zh-Hant, es-419) and only with the words its base language lacks.

--check   exit 1 when templates/synonyms.json differs from what would be written (nothing is written);
--report  print, per locale and category, the keywords kept and dropped (and why) for review.

Category labels (categories.json) are left as they are: CLDR's names are names of pictograms ('ATM sign', 'fork and
knife with plate', 'fuel pump', 'hot beverage'), lower-case and singular, not the display labels of places.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import unicodedata
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEMPLATES = os.path.join(ROOT, "templates")
MANUAL = os.path.join(TEMPLATES, "synonyms", "manual.json")
CLDR_MAP = os.path.join(TEMPLATES, "synonyms", "cldr-map.json")
CATEGORIES = os.path.join(TEMPLATES, "categories.json")
OSM_MAP = os.path.join(TEMPLATES, "synonyms", "osm-types-map.json")
OSM_TYPES = os.path.join(TEMPLATES, "synonyms", "osm-types.json")
OUTPUT = os.path.join(TEMPLATES, "synonyms.json")
VS16 = "\ufe0f"


def norm(text):
    """NFC, lower-cased, inner whitespace collapsed."""
    return " ".join(unicodedata.normalize("NFC", text).lower().split())


def words(keyword):
    return re.findall(r"\w+", keyword)


def symbol(cp):
    """CLDR's cp values carry no U+FE0F; the map may (ℹ️ or ℹ)."""
    return cp.replace(VS16, "")


def bcp47(cldr_locale):
    return cldr_locale.replace("_", "-")


def language(locale):
    return re.split(r"[-_]", locale)[0].lower()


def read_annotations(path, accepted_drafts):
    """{symbol: (tts or None, [keywords])} for one CLDR annotations file (only accepted draft levels)."""
    out = {}
    for a in ET.parse(path).getroot().iter("annotation"):
        if (a.get("draft") or "approved") not in accepted_drafts or not a.text:
            continue
        cp = symbol(a.get("cp", ""))
        tts, kws = out.get(cp, (None, []))
        if a.get("type") == "tts":
            tts = norm(a.text)
        else:
            kws = [norm(k) for k in a.text.split("|") if norm(k)]
        out[cp] = (tts, kws)
    return out


def cldr_versions(cldr_dir):
    """('41', '41-0.1'): CLDR's version from its DTD, Debian's package version when dpkg knows it."""
    version = "?"
    try:
        with open(os.path.join(cldr_dir, "common", "dtd", "ldml.dtd"), encoding="utf-8") as f:
            m = re.search(r'cldrVersion CDATA #FIXED "([0-9.]+)"', f.read())
            version = m.group(1) if m else "?"
    except OSError:
        pass
    debian = None
    try:
        r = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "unicode-cldr-core"],
                           capture_output=True, text=True, check=False)
        if r.returncode == 0 and r.stdout.strip() and cldr_dir.rstrip("/") == "/usr/share/unicode/cldr":
            debian = r.stdout.strip()
    except OSError:
        pass
    return version, debian


def load_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


class Generator:
    def __init__(self, cldr_dir):
        self.cldr_dir = cldr_dir
        self.manual = load_json(MANUAL)
        self.map = load_json(CLDR_MAP)
        self.categories = load_json(CATEGORIES)["categories"]
        self.category_ids = [c["id"] for c in self.categories]
        self.accepted = set(self.map["accepted_drafts"])
        self.generic_min = self.map["generic_min_symbols"]
        self.mapped = {cat: [symbol(s) for s in entry["symbols"]] for cat, entry in self.map["categories"].items()}
        self.subtract = {cat: [symbol(s) for s in entry.get("subtract", {})] for cat, entry in self.map["categories"].items()}
        self.claimed = {cat: [symbol(s) for s in syms] for cat, syms in self.map["claims"].items() if cat != "about"}
        for cat in list(self.mapped) + list(self.claimed):
            if cat not in self.category_ids:
                sys.exit(f"cldr-synonyms: {CLDR_MAP}: unknown category '{cat}'")
        for cat in self.manual["synonyms"]:
            if cat not in self.category_ids:
                sys.exit(f"cldr-synonyms: {MANUAL}: unknown category '{cat}'")
        # every label and manual synonym of each category, in any language: never generic for that category
        self.any_language = {c["id"]: {norm(v) for v in c["labels"].values()} for c in self.categories}
        for cat, per_locale in self.manual["synonyms"].items():
            for ws in per_locale.values():
                self.any_language[cat].update(norm(w) for w in ws)
        self.common = {cat for cat, entry in self.map["categories"].items() if entry.get("mode") == "common"}
        self.block = {loc: entries for loc, entries in self.map["block"].items()}
        self.report = []
        self.osm_map = load_json(OSM_MAP)
        self.osm_types = load_json(OSM_TYPES)
        for cat in self.osm_map["categories"]:
            if cat not in self.category_ids:
                sys.exit(f"cldr-synonyms: {OSM_MAP}: unknown category '{cat}'")
        self.osm_words = self.read_osm_words()

    def osm_parts(self, locale, title):
        """The search words of one OSM type name: parts split at '/', ',', '、', '・', without parentheses."""
        t = re.sub(r"\([^)]*\)|（[^）]*）", " ", unicodedata.normalize("NFC", title))
        out = []
        for part in re.split(r"/|,|，|、|・|;", t):
            w = norm(part).strip(" .。:")
            for suffix in self.osm_map.get("strip", {}).get(language(locale), []):
                if w.endswith(suffix) and len(w) > len(suffix):
                    w = w[:-len(suffix)].strip()
            if w and w not in out:
                out.append(w)
        return out

    def read_osm_words(self):
        """{locale: {category: [words]}}: the OSM type names of each mapped category, split into words."""
        out = {}
        renamed = self.osm_map.get("locales", {})
        for cat, types in self.osm_map["categories"].items():
            for t in types:
                titles = self.osm_types["types"].get(t, {})
                # "C" (the source English) after "en": en's own name first
                for src in sorted(titles, key=lambda k: (k == "C", k)):
                    loc = renamed.get(src, src)
                    have = out.setdefault(loc, {}).setdefault(cat, [])
                    for w in self.osm_parts(loc, titles[src]):
                        reason = self.blocked_in(self.osm_map["block"], loc, cat, w)
                        if reason:  # a blocked name is nobody's: it takes no word from another category
                            self.report.append((loc, cat, w, "osm: " + reason))
                        elif w not in have:
                            have.append(w)
        return out

    def osm_language_words(self, lang):
        """{word: set(categories)}: the OSM type names of every locale of language `lang`."""
        out = {}
        for loc, per_cat in self.osm_words.items():
            if language(loc) == lang:
                for cat, ws in per_cat.items():
                    for w in ws:
                        out.setdefault(w, set()).add(cat)
        return out

    def osm_keep(self, locale, cat, word, hand_made):
        """None when the OSM name `word` of `cat` stays in `locale`, else why it leaves."""
        if len(word) < 2 and not unicodedata.name(word, "").startswith(("CJK UNIFIED IDEOGRAPH", "HANGUL SYLLABLE")):
            return "one letter"
        others = {c for c, ws in hand_made.items() if c != cat and word in ws}
        if others:
            return "a label or manual synonym of " + ", ".join(sorted(others))
        types = self.osm_language_words(language(locale)).get(word, set()) - {cat}
        if types:
            return "also the type name of " + ", ".join(sorted(types))
        return None

    def locales(self):
        folder = os.path.join(self.cldr_dir, "common", "annotations")
        names = sorted(n[:-4] for n in os.listdir(folder) if n.endswith(".xml") and n != "root.xml")
        return folder, names

    def language_words(self, lang):
        """{category: set(words)}: labels and manual synonyms of each category in language `lang`."""
        out = {}
        for c in self.categories:
            ws = {norm(v) for k, v in c["labels"].items() if language(k) == lang}
            for loc, syns in self.manual["synonyms"].get(c["id"], {}).items():
                if language(loc) == lang:
                    ws.update(norm(w) for w in syns)
            out[c["id"]] = ws
        return out

    def blocked(self, locale, category, keyword):
        return self.blocked_in(self.block, locale, category, keyword)

    def blocked_in(self, block, locale, category, keyword):
        kw_words = set(words(keyword))
        for scope in ("*", language(locale), locale):
            for entry in block.get(scope, []):
                if "only" in entry and category not in entry["only"]:
                    continue
                w = norm(entry["word"])
                if w == keyword or (" " not in w and w in kw_words):
                    return f"blocked ({scope}): {entry['reason']}"
        return None

    def keywords_for(self, locale, data):
        """{category: [kept keywords]} for one resolved locale; records what was dropped in the report."""
        counts = {}
        for _, (_, kws) in data.items():
            for k in set(kws):
                counts[k] = counts.get(k, 0) + 1
        owners = {}  # keyword -> categories whose symbols (mapped or claimed) or words list it
        for cat, syms in list(self.mapped.items()) + list(self.claimed.items()):
            for s in syms:
                tts, kws = data.get(s, (None, []))
                for k in kws + ([tts] if tts else []):
                    owners.setdefault(k, set()).add(cat)
        for cat, ws in self.language_words(language(locale)).items():
            for k in ws:
                owners.setdefault(k, set()).add(cat)
        for k, cats in self.osm_language_words(language(locale)).items():
            owners.setdefault(k, set()).update(cats)
        out = {}
        for cat, syms in self.mapped.items():
            own_names = {data[s][0] for s in syms if s in data and data[s][0]}
            subtracted = set()
            for s in self.subtract[cat]:
                tts, kws = data.get(s, (None, []))
                subtracted.update(kws + ([tts] if tts else []))
            shared = None  # mode "common": the keywords every symbol of the category has
            if cat in self.common:
                for s in syms:
                    kws = set(data.get(s, (None, []))[1])
                    shared = kws if shared is None else shared & kws
            kept = []
            for s in syms:
                if s not in data:
                    continue
                tts, kws = data[s]
                candidates = ([tts] if tts and tts not in kws else []) + kws
                if shared is not None:
                    candidates = [k for k in candidates if k in shared or k == tts]
                for k in candidates:
                    reason = None
                    if len(k) < 2 and not unicodedata.name(k, "").startswith("CJK UNIFIED IDEOGRAPH"):
                        reason = "one letter"
                    elif counts.get(k, 0) >= self.generic_min and k not in own_names and k not in self.any_language[cat]:
                        reason = f"generic: a keyword of {counts[k]} symbols"
                    elif len(owners.get(k, set()) - {cat}) > 0 and k not in own_names:
                        reason = "also " + ", ".join(sorted(owners[k] - {cat}))
                    elif k in subtracted and k not in own_names:
                        reason = "names the object (shared with a subtract symbol)"
                    else:
                        reason = self.blocked(locale, cat, k)
                    if reason:
                        self.report.append((locale, cat, k, reason))
                    elif k not in kept:
                        kept.append(k)
            if kept:
                out[cat] = kept
        return out

    def generate(self):
        folder, names = self.locales()
        raw = {n: read_annotations(os.path.join(folder, n + ".xml"), self.accepted) for n in names}
        cldr = {}  # BCP 47 locale -> {category: [words]}
        for n in names:
            base = n.split("_")[0]
            data = raw[n]
            if n != base:
                if base not in raw:
                    continue
                data = dict(raw[base])
                data.update(raw[n])  # a variant's entry replaces its base language's
            words_by_cat = self.keywords_for(bcp47(n), data)
            if n != base:
                base_words = cldr.get(base, {})
                words_by_cat = {c: [w for w in ws if w not in base_words.get(c, [])] for c, ws in words_by_cat.items()}
                words_by_cat = {c: ws for c, ws in words_by_cat.items() if ws}
            if words_by_cat:
                cldr[bcp47(n)] = words_by_cat
        synonyms = {}
        for cat in self.category_ids:
            manual = self.manual["synonyms"].get(cat, {})
            per_locale = {}
            for loc, ws in manual.items():
                per_locale[loc] = []
                for w in ws:
                    if norm(w) not in per_locale[loc]:
                        per_locale[loc].append(norm(w))
            for loc in sorted(cldr):
                extra = cldr[loc].get(cat, [])
                if not extra:
                    continue
                have = per_locale.setdefault(loc, [])
                # a variant's words that its base language already has (by hand) are left out
                base_have = per_locale.get(language(loc), []) if loc != language(loc) else []
                for w in extra:
                    if w not in have and w not in base_have:
                        have.append(w)
                if not have:
                    del per_locale[loc]
            for loc in sorted(self.osm_words):
                extra = self.osm_words[loc].get(cat, [])
                if not extra:
                    continue
                hand_made = self.language_words(language(loc))
                have = per_locale.setdefault(loc, [])
                base_have = per_locale.get(language(loc), []) if loc != language(loc) else []
                for w in extra:
                    if w in have or w in base_have:
                        continue
                    reason = self.osm_keep(loc, cat, w, hand_made)
                    if reason:
                        self.report.append((loc, cat, w, "osm: " + reason))
                    else:
                        have.append(w)
                if not have:
                    del per_locale[loc]
            if per_locale:
                synonyms[cat] = per_locale
        version, debian = cldr_versions(self.cldr_dir)
        source = f"Unicode CLDR {version} annotations"
        if debian:
            source += f" (Debian unicode-cldr-core {debian})"
        source += "; " + self.osm_types["source"]
        return {
            "format": 1,
            "source": source,
            "generated_by": "scripts/cldr-synonyms.py from templates/synonyms/manual.json (first), "
                            "templates/synonyms/cldr-map.json and osm-types-map.json; do not edit by hand",
            "synonyms": synonyms,
        }


def render(doc):
    """JSON with one line per locale's word list (reviewable diffs), keys in the generator's order."""
    lines = ["{"]
    lines.append(f'  "format": {doc["format"]},')
    lines.append(f'  "source": {json.dumps(doc["source"], ensure_ascii=False)},')
    lines.append(f'  "generated_by": {json.dumps(doc["generated_by"], ensure_ascii=False)},')
    lines.append('  "synonyms": {')
    cats = list(doc["synonyms"].items())
    for i, (cat, per_locale) in enumerate(cats):
        lines.append(f'    {json.dumps(cat)}: {{')
        locs = list(per_locale.items())
        for j, (loc, ws) in enumerate(locs):
            comma = "," if j < len(locs) - 1 else ""
            lines.append(f'      {json.dumps(loc)}: {json.dumps(ws, ensure_ascii=False)}{comma}')
        lines.append("    }" + ("," if i < len(cats) - 1 else ""))
    lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description="Regenerate templates/synonyms.json from manual synonyms and CLDR.")
    parser.add_argument("--cldr", default="/usr/share/unicode/cldr", help="CLDR folder holding common/annotations")
    parser.add_argument("--check", action="store_true", help="exit 1 when templates/synonyms.json is stale")
    parser.add_argument("--report", action="store_true", help="print kept and dropped keywords for review")
    args = parser.parse_args()
    if not os.path.isdir(os.path.join(args.cldr, "common", "annotations")):
        print(f"cldr-synonyms: no CLDR annotations in {args.cldr}/common/annotations "
              "(apt-get install unicode-cldr-core, or --cldr DIR)", file=sys.stderr)
        return 2
    gen = Generator(args.cldr)
    doc = gen.generate()
    text = render(doc)
    json.loads(text)  # the renderer's output must be JSON
    if args.report:
        for loc, cat, k, reason in gen.report:
            print(f"dropped\t{loc}\t{cat}\t{k}\t{reason}")
        for cat, per_locale in doc["synonyms"].items():
            for loc, ws in per_locale.items():
                print(f"kept\t{loc}\t{cat}\t{' | '.join(ws)}")
    try:
        with open(OUTPUT, encoding="utf-8") as f:
            current = f.read()
    except OSError:
        current = None
    if args.check:
        if current != text:
            print(f"cldr-synonyms: {os.path.relpath(OUTPUT, ROOT)} is stale: run scripts/cldr-synonyms.py",
                  file=sys.stderr)
            return 1
        return 0
    if current != text:
        with open(OUTPUT, "w", encoding="utf-8") as f:
            f.write(text)
    if not args.report:
        locales = {loc for per_locale in doc["synonyms"].values() for loc in per_locale}
        print(f"cldr-synonyms: {os.path.relpath(OUTPUT, ROOT)}: {len(doc['synonyms'])} categories, "
              f"{len(locales)} locales ({doc['source']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
