#!/usr/bin/env python3
"""Agreement check for the opening_hours parser and evaluator.

Collects every distinct `opening_hours` value (with counts) from the OSM files under ../shared/data (XML .osm,
.osm.gz, .osm.bz2 and .pbf; a PBF and its XML conversion are read once), evaluates each value at a fixed set of
local times with the Swift evaluator (scripts/opening-hours-driver.swift compiled by swiftc, cached in /tmp by source
hash) and with the JS evaluator on the compact forms (clients/web/opening-hours.js, node), and compares with the
independent PyPI `opening-hours-py` (`pip install opening-hours-py`).

Swift and JS must agree on every (value, time): exit 1 otherwise. Differences from opening-hours-py are reported by
class: `holiday` (our `unknown` because the answer depends on PH/SH; it takes no day as a holiday without a region,
and ours, evaluated under that assumption, must then give its answer), `midnight spill` (it drops a later rule's
hours past midnight on days an earlier rule matches), `comment` (a rule that is only a comment: unknown for us, open for it), `open end` (`18:00+`: unknown for
us, open for it), and `other` (real disagreements, listed with examples).

  scripts/opening-hours-agreement.py [--data DIR] [--json]
"""
import argparse
import bz2
import collections
import datetime
import glob
import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SWIFT_SOURCES = sorted(glob.glob(os.path.join(ROOT, 'Sources/CityPackSupport/OpeningHours*.swift'))) + [
    os.path.join(ROOT, 'Sources/CityPackSupport/CivilTime.swift'),
    os.path.join(ROOT, 'scripts/opening-hours-driver.swift')]
JS_MODULE = os.path.join(ROOT, 'clients/web/opening-hours.js')

# Local wall-clock times: every weekday, mornings, evenings, past midnight, a Sunday, December and other seasons.
TIMES = [
    '2024-06-03T10:00',  # Monday morning
    '2024-06-04T12:45',  # Tuesday lunch
    '2024-06-05T18:30',  # Wednesday evening
    '2024-06-06T23:30',  # Thursday late
    '2024-06-08T01:30',  # Saturday night, after Friday's midnight
    '2024-06-09T11:00',  # Sunday
    '2024-06-09T23:59',  # Sunday, the week's last minute
    '2024-03-17T08:00',  # a Sunday in March
    '2024-08-15T14:00',  # a Thursday in August
    '2024-10-31T19:00',  # a Thursday evening in October
    '2024-12-24T16:00',  # Tuesday, Christmas Eve
    '2024-12-25T10:00',  # Wednesday, Christmas Day
    '2025-01-01T00:00',  # New Year, midnight
]
HORIZON_DAYS = 366


def log(*args):
    print(*args, file=sys.stderr)


# --- collecting values ---------------------------------------------------------------------------------------------

def osm_files(data):
    """OSM files under `data`, one per dataset: the PBF when osmium can read it, else its XML conversion."""
    found = {}
    for path in sorted(glob.glob(os.path.join(data, '**', '*'), recursive=True)):
        name = os.path.basename(path)
        m = re.match(r'(.*?)\.(osm\.pbf|pbf|osm|osm\.gz|osm\.bz2)$', name)
        if not m or not os.path.isfile(path):
            continue
        found.setdefault(os.path.join(os.path.dirname(path), m.group(1)), []).append(path)
    have_osmium = shutil.which('osmium') is not None
    chosen = []
    for stem, paths in sorted(found.items()):
        pbf = [p for p in paths if p.endswith('.pbf')]
        xml = [p for p in paths if not p.endswith('.pbf')]
        if pbf and (have_osmium or not xml):
            chosen.append(pbf[0])
        else:
            chosen.append(xml[0])
    return chosen


OPL_ESCAPE = re.compile(r'%([0-9a-fA-F]+)%')


def opl_unescape(text):
    return OPL_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text)


def values_with_osmium(path, counts):
    out = subprocess.run(['osmium', 'tags-filter', '-F', osmium_format(path), '-f', 'opl', '-o', '-', path,
                          'nwr/opening_hours'], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip().splitlines()[-1] if out.stderr.strip() else 'osmium failed')
    for line in out.stdout.splitlines():
        for field in line.split(' '):
            if field.startswith('T'):
                for pair in field[1:].split(','):
                    key, _, value = pair.partition('=')
                    if opl_unescape(key) == 'opening_hours':
                        counts[opl_unescape(value)] += 1


def osmium_format(path):
    for suffix, fmt in (('.pbf', 'pbf'), ('.osm.gz', 'osm.gz'), ('.osm.bz2', 'osm.bz2'), ('.osm', 'osm')):
        if path.endswith(suffix):
            return fmt
    return 'osm'


def values_with_python(path, counts):
    if path.endswith('.pbf'):
        import osmium  # pyosmium (PyPI), only when the osmium CLI is missing

        class Handler(osmium.SimpleHandler):
            def collect(self, obj):
                value = obj.tags.get('opening_hours')
                if value is not None:
                    counts[value] += 1
            node = way = relation = collect

        Handler().apply_file(path)
        return
    opener = gzip.open if path.endswith('.gz') else bz2.open if path.endswith('.bz2') else open
    with opener(path, 'rb') as f:
        for _, element in ET.iterparse(f):
            if element.tag == 'tag' and element.get('k') == 'opening_hours':
                counts[element.get('v')] += 1
            if element.tag in ('node', 'way', 'relation'):
                element.clear()


def collect_values(data):
    counts = collections.Counter()
    files, unreadable = [], []
    for path in osm_files(data):
        before = sum(counts.values())
        try:
            if shutil.which('osmium'):
                values_with_osmium(path, counts)
            else:
                values_with_python(path, counts)
        except Exception as error:  # the parser test suite holds deliberately broken files
            unreadable.append((os.path.relpath(path, data), str(error)[:120]))
            continue
        files.append((os.path.relpath(path, data), sum(counts.values()) - before))
    return counts, files, unreadable


# --- our evaluators ------------------------------------------------------------------------------------------------

def driver_binary():
    digest = hashlib.sha256()
    for path in SWIFT_SOURCES:
        with open(path, 'rb') as f:
            digest.update(path.encode() + b'\0' + f.read())
    binary = f'/tmp/opening-hours-driver-{digest.hexdigest()[:16]}'
    if not os.path.exists(binary):
        log(f'compiling the Swift driver → {binary}')
        subprocess.run(['swiftc', '-O', '-parse-as-library', '-package-name', 'citypack', '-o', binary + '.tmp', *SWIFT_SOURCES], check=True)
        os.replace(binary + '.tmp', binary)
    return binary


def run_swift(values):
    lines = ''.join(json.dumps({'value': v, 'times': TIMES}) + '\n' for v in values)
    out = subprocess.run([driver_binary()], input=lines, capture_output=True, text=True, check=True)
    results = [json.loads(line) for line in out.stdout.splitlines()]
    assert [r['value'] for r in results] == list(values), 'driver output out of step'
    return {r['value']: r for r in results}


JS_RUNNER = r"""
import { openingState } from %s;
import { readFileSync } from 'node:fs';
const out = [];
for (const line of readFileSync(0, 'utf8').split('\n')) {
  if (!line) continue;
  const { compact, times } = JSON.parse(line);
  const results = times.map((time) => {
    const [y, mo, d, h, mi] = time.split(/[-T:]/).map(Number);
    const r = openingState(compact, { year: y, month: mo, day: d, minute: h * 60 + mi });
    const n = r.nextChange;
    const pad = (x, w) => String(x).padStart(w, '0');
    const next = n ? `${pad(n.year, 4)}-${pad(n.month, 2)}-${pad(n.day, 2)}T${pad(Math.floor(n.minute / 60), 2)}:${pad(n.minute %% 60, 2)}` : null;
    return { time, state: r.state, next };
  });
  out.push(JSON.stringify({ compact, results }));
}
process.stdout.write(out.join('\n') + '\n');
"""


def run_js(compacts):
    script = JS_RUNNER % json.dumps('file://' + JS_MODULE)
    lines = ''.join(json.dumps({'compact': c, 'times': TIMES}) + '\n' for c in compacts)
    out = subprocess.run(['node', '--input-type=module', '-e', script], input=lines, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f'node failed:\n{out.stderr}')
    return {r['compact']: r['results'] for r in map(json.loads, out.stdout.splitlines())}


# --- theirs --------------------------------------------------------------------------------------------------------

def run_theirs(values):
    try:
        from opening_hours import OpeningHours
    except ImportError:
        raise SystemExit('needs opening-hours-py: pip install opening-hours-py')
    results = {}
    for value in values:
        try:
            oh = OpeningHours(value, max_interval_days=HORIZON_DAYS)
        except Exception as error:
            results[value] = {'error': str(error).strip().splitlines()[0][:160] if str(error).strip() else 'error'}
            continue
        rows = []
        for time in TIMES:
            at = datetime.datetime.fromisoformat(time)
            state = oh.state(at)[0]
            state = str(state).rsplit('.', 1)[-1].lower()
            nxt = oh.next_change(at)
            if nxt is not None:
                nxt = nxt.replace(tzinfo=None)
                nxt = None if nxt - at > datetime.timedelta(days=HORIZON_DAYS) else nxt.strftime('%Y-%m-%dT%H:%M')
            rows.append({'time': time, 'state': state, 'next': nxt})
        results[value] = {'error': None, 'results': rows}
    return results


HOLIDAY = re.compile(r'\b(PH|SH)\b', re.IGNORECASE)
# `Sa, Su 10:00-12:00`: a weekday list for us; for opening-hours-py `Sa` (all day) and an additional rule `Su ...`.
DAY = r'(?:Mo|Tu|We|Th|Fr|Sa|Su)'
SPACED_LIST = re.compile(rf'(?:^|[;,]\s*){DAY}(?:-{DAY})?(?:,{DAY}(?:-{DAY})?)*, (?:{DAY}|PH|SH)')


def classify(value, ours, theirs, no_holidays):
    """Why our answer `ours` differs from `theirs`; `no_holidays` is ours when no day is a holiday (or None)."""
    if SPACED_LIST.search(value):
        return 'spaced weekday list'
    if no_holidays is not None and no_holidays == {'time': theirs['time'], 'state': theirs['state'], 'next': theirs['next']}:
        return 'holiday'
    if '"' in value:
        return 'comment'
    if re.search(r'\d\+', value):
        return 'open end'
    # `Mo-Sa 10:00-22:00; Su 19:00-01:00` late on Sunday: for us open until 01:00; opening-hours-py drops a rule's
    # spill past midnight on days an earlier rule matches, so for it the day closes at 00:00.
    if (ours['state'] == theirs['state'] == 'open' and theirs['next'] and theirs['next'].endswith('T00:00')
            and ours['next'] and ours['next'][:10] == theirs['next'][:10] and ours['next'] > theirs['next']):
        return 'midnight spill'
    return 'other'


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--data', default=os.path.join(ROOT, '..', 'shared', 'data'))
    parser.add_argument('--json', action='store_true', help='machine-readable output')
    args = parser.parse_args()

    counts, files, unreadable = collect_values(os.path.normpath(args.data))
    values = sorted(counts, key=lambda v: (-counts[v], v))
    swift = run_swift(values)
    compacts = sorted({r['compact'] for r in swift.values() if r['compact'] is not None})
    js = run_js(compacts)
    theirs = run_theirs(values)

    swift_js_mismatches = []
    pairs = collections.Counter()
    disagreements = []
    we_reject = []
    they_reject = []
    for value in values:
        ours, their = swift[value], theirs[value]
        if ours['error'] is None:
            for s, j in zip(ours['results'], js[ours['compact']]):
                if s != j:
                    swift_js_mismatches.append({'value': value, 'compact': ours['compact'], 'swift': s, 'js': j})
        if ours['error'] is not None and their['error'] is None:
            we_reject.append({'value': value, 'count': counts[value], 'message': ours['error']['message'],
                              'offset': ours['error']['offset']})
        if ours['error'] is None and their['error'] is not None:
            they_reject.append({'value': value, 'count': counts[value], 'compact': ours['compact'],
                                'their_error': their['error']})
        if ours['error'] is not None or their['error'] is not None:
            continue
        for o, t in zip(ours['results'], their['results']):
            pairs['total'] += 1
            same_state, same_next = o['state'] == t['state'], o['next'] == t['next']
            pairs['state agrees'] += same_state
            pairs['next change agrees'] += same_next
            if same_state and same_next:
                pairs['both agree'] += 1
                continue
            # Theirs takes no day as a holiday without a region: ours must agree under that assumption.
            h = ours['noHolidays'][TIMES.index(o['time'])] if ours['noHolidays'] else None
            kind = classify(value, o, t, h)
            pairs[f'differs: {kind}'] += 1
            disagreements.append({'class': kind, 'value': value, 'count': counts[value], 'time': o['time'],
                                  'ours': {'state': o['state'], 'next': o['next']},
                                  'theirs': {'state': t['state'], 'next': t['next']}, 'compact': ours['compact']})

    summary = {
        'files': [{'file': f, 'opening_hours': n} for f, n in files],
        'unreadable_files': len(unreadable),
        'values_distinct': len(values),
        'values_total': sum(counts.values()),
        'parsed_by_us': sum(1 for v in values if swift[v]['error'] is None),
        'parsed_by_them': sum(1 for v in values if theirs[v]['error'] is None),
        'parsed_by_both': sum(1 for v in values if swift[v]['error'] is None and theirs[v]['error'] is None),
        'times': TIMES,
        'pairs': dict(pairs),
        'swift_js_pairs': sum(len(swift[v]['results']) for v in values if swift[v]['error'] is None),
        'swift_js_mismatches': swift_js_mismatches,
        'disagreements': disagreements,
        'we_reject_they_accept': we_reject,
        'they_reject_we_accept': they_reject,
        'compact_bytes_mean': round(sum(len(swift[v]['compact']) * counts[v] for v in values if swift[v]['compact']) /
                                    max(1, sum(counts[v] for v in values if swift[v]['compact'])), 1),
        'value_bytes_mean': round(sum(len(v.encode()) * counts[v] for v in values if swift[v]['compact']) /
                                  max(1, sum(counts[v] for v in values if swift[v]['compact'])), 1),
    }
    if args.json:
        print(json.dumps(summary, indent=1, ensure_ascii=False))
    else:
        report(summary)
    return 1 if swift_js_mismatches else 0


def report(s):
    print(f"files read: {len(s['files'])} ({s['unreadable_files']} unreadable test files skipped)")
    for f in s['files']:
        if f['opening_hours']:
            print(f"  {f['file']}: {f['opening_hours']} opening_hours")
    print(f"values: {s['values_distinct']} distinct ({s['values_total']} tags); parsed by us {s['parsed_by_us']}, "
          f"by opening-hours-py {s['parsed_by_them']}, by both {s['parsed_by_both']}")
    print(f"compact form: {s['compact_bytes_mean']} bytes per tag on average (the values: {s['value_bytes_mean']})")
    p = s['pairs']
    total = p.get('total', 0)
    print(f"(value, time) pairs where both parse: {total} at {len(s['times'])} times")
    for key in ('state agrees', 'next change agrees', 'both agree'):
        print(f"  {key}: {p.get(key, 0)} ({100 * p.get(key, 0) / max(1, total):.1f}%)")
    for key in sorted(k for k in p if k.startswith('differs')):
        print(f"  {key}: {p[key]}")
    # The first 20: every 'other' first, then a few of each explained class.
    by_class = collections.defaultdict(list)
    for d in s['disagreements']:
        by_class[d['class']].append(d)
    shown = by_class.pop('other', [])[:20]
    for kind in sorted(by_class):
        shown += by_class[kind][:max(0, min(4, 20 - len(shown)))]
    if shown:
        print(f"disagreements (first {len(shown)}: 'other' first, then up to 4 of each class):")
        for d in shown:
            print(f"  [{d['class']}] {d['value']!r} at {d['time']}: ours {d['ours']['state']}→{d['ours']['next']}, "
                  f"theirs {d['theirs']['state']}→{d['theirs']['next']}")
    if s['we_reject_they_accept']:
        print(f"values we reject that opening-hours-py accepts ({len(s['we_reject_they_accept'])}):")
        for r in s['we_reject_they_accept']:
            print(f"  {r['value']!r} ×{r['count']}: {r['message']} (at {r['offset']})")
    if s['they_reject_we_accept']:
        print(f"values opening-hours-py rejects that we accept ({len(s['they_reject_we_accept'])}):")
        for r in s['they_reject_we_accept'][:30]:
            print(f"  {r['value']!r} ×{r['count']} → {r['compact']}")
    mismatches = s['swift_js_mismatches']
    print(f"Swift = JS: {'yes' if not mismatches else 'NO'} on {s['swift_js_pairs']} (value, time) pairs"
          + (f", {len(mismatches)} differ" if mismatches else ''))
    for m in mismatches[:20]:
        print(f"  {m['value']!r} ({m['compact']}): swift {m['swift']} js {m['js']}")


if __name__ == '__main__':
    sys.exit(main())
