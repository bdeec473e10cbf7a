#!/usr/bin/env bash
# Runs CityPack's libFuzzer targets (Fuzz/, a separate SwiftPM package) with address sanitizer.
#
#   scripts/fuzz.sh TARGET SECONDS [extra libFuzzer flags…]
#   scripts/fuzz.sh all SECONDS            # every target, one after another, SECONDS each
#   scripts/fuzz.sh list                   # target names
#   scripts/fuzz.sh osm 100000 -runs=1000000   # a campaign by executions (extra flags go to libFuzzer); resumable:
#                                          # each run starts from $FUZZ_WORK/corpus/<Executable>/ as left by the last
#   scripts/fuzz.sh keep TARGET            # minimise the kept corpus and $FUZZ_WORK's into Fuzz/corpus/<Executable>/
#                                          # (libFuzzer -merge=1: the smallest set with the same coverage)
#   scripts/fuzz.sh smoke [SECONDS]        # CI: build every target, replay each kept corpus (Fuzz/corpus/<Executable>/)
#                                          # in full, then fuzz each for SECONDS (default 20) from a scratch copy;
#                                          # the targets run side by side, FUZZ_JOBS (default: cores) at a time
#
# TARGET: osm, pbf, csv, gtfs-zip, gtfs-dir, city (or the executable name, e.g. FuzzOSM).
# The seed corpus in Fuzz/corpus/<Executable>/ is only read; new inputs go to $FUZZ_WORK/corpus/<Executable>/,
# crashes to $FUZZ_WORK/artifacts/<Executable>/, logs to $FUZZ_WORK/logs/<Executable>.log
# (FUZZ_WORK defaults to /tmp/citypack-fuzz). One process (no -jobs: that mode writes fuzz-N.log into the
# current folder), 2 GB RSS limit, 10 s per input. Prints the executions per target.
# FUZZ_NO_BUILD=1 runs the binaries already in Fuzz/.build/debug (e.g. while the sources are being edited).
# LeakSanitizer is off (-detect_leaks=0): Foundation's file APIs on Linux keep allocations ASan reports as leaks.
# Exit status: 0 when no target crashed, 1 otherwise.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
work="${FUZZ_WORK:-/tmp/citypack-fuzz}"
all_targets=(FuzzOSM FuzzPBF FuzzCSV FuzzGTFSZip FuzzGTFSDir FuzzCityFile)
if [ -d "$root/Fuzz/Sources/FuzzCopyMessage" ]; then all_targets+=(FuzzCopyMessage); fi

usage() { sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 64; }

executable() {
    case "$1" in
        osm) echo FuzzOSM ;;
        pbf) echo FuzzPBF ;;
        csv) echo FuzzCSV ;;
        gtfs-zip|zip) echo FuzzGTFSZip ;;
        gtfs-dir|gtfs) echo FuzzGTFSDir ;;
        city|city-file) echo FuzzCityFile ;;
        copy|copy-message) echo FuzzCopyMessage ;;
        Fuzz*) echo "$1" ;;
        *) echo "unknown target '$1'; one of: osm pbf csv gtfs-zip gtfs-dir city copy" >&2; exit 64 ;;
    esac
}

[ $# -ge 1 ] || usage
if [ "$1" = list ]; then printf '%s\n' "${all_targets[@]}"; exit 0; fi

build() {
    (cd "$root/Fuzz" && swift build -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library \
        --product "$1" 2>&1 | grep -v 'Cannot export local symbol' | tail -3)
    [ -x "$root/Fuzz/.build/debug/$1" ] || { echo "build of $1 failed" >&2; exit 1; }
}

run() {
    local exe="$1"; shift
    mkdir -p "$work/corpus/$exe" "$work/artifacts/$exe" "$work/logs"
    local log="$work/logs/$exe.log"
    if [ "${FUZZ_NO_BUILD:-0}" != 1 ]; then build "$exe"; fi
    echo "== $exe: ${seconds}s, log $log"
    local status=0
    ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
        "$root/Fuzz/.build/debug/$exe" "$work/corpus/$exe" "$root/Fuzz/corpus/$exe" \
        -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len=65536 \
        -print_final_stats=1 -detect_leaks=0 -artifact_prefix="$work/artifacts/$exe/" "$@" >"$log" 2>&1 || status=$?
    local execs
    execs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1 || true)"
    local done_line
    done_line="$(grep -E '^(#[0-9]+[[:space:]]+DONE|Done [0-9]+ runs)' "$log" | tail -1 || true)"
    echo "   executions: ${execs:-?}  ${done_line}"
    echo "   corpus: $(ls "$work/corpus/$exe" | wc -l) files; crashes: $(ls "$work/artifacts/$exe" | wc -l)"
    if [ "$status" -ne 0 ]; then
        echo "   CRASH (exit $status):"; grep -E 'ERROR|SUMMARY|Fatal error|Test unit written' "$log" | head -5 | sed 's/^/     /'
        return 1
    fi
}

if [ "$1" = keep ]; then
    [ $# -eq 2 ] || usage
    exe="$(executable "$2")" || exit 64
    bin="$root/Fuzz/.build/debug/$exe"
    [ -x "$bin" ] || build "$exe"
    merged="$(mktemp -d "${TMPDIR:-/tmp}/citypack-fuzz-keep.XXXXXX")"
    mkdir -p "$work/corpus/$exe" "$work/logs"
    before="$(ls "$root/Fuzz/corpus/$exe" | wc -l)"
    ASAN_OPTIONS="detect_leaks=0" "$bin" -merge=1 -rss_limit_mb=2048 -timeout=10 -max_len=65536 -detect_leaks=0 \
        "$merged" "$root/Fuzz/corpus/$exe" "$work/corpus/$exe" >"$work/logs/$exe.merge.log" 2>&1 \
        || { echo "merge failed; see $work/logs/$exe.merge.log" >&2; exit 1; }
    rm -rf "$root/Fuzz/corpus/$exe"
    mv "$merged" "$root/Fuzz/corpus/$exe"
    chmod 755 "$root/Fuzz/corpus/$exe"
    echo "$exe: kept corpus $before → $(ls "$root/Fuzz/corpus/$exe" | wc -l) files, $(du -sk "$root/Fuzz/corpus/$exe" | cut -f1) KiB"
    exit 0
fi
if [ "$1" = smoke ]; then
    seconds="${2:-20}"
    [[ "$seconds" =~ ^[0-9]+$ ]] || { echo "SECONDS must be a whole number" >&2; exit 64; }
    scratch="$(mktemp -d "${TMPDIR:-/tmp}/citypack-fuzz-smoke.XXXXXX")"
    trap 'rm -rf "$scratch"' EXIT
    if [ "${FUZZ_NO_BUILD:-0}" != 1 ]; then
        (cd "$root/Fuzz" && swift build -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library 2>&1 \
            | grep -v 'Cannot export local symbol' | tail -3)
    fi
    # One target: replay, fuzz, and a report in $scratch/$exe.out (exit status in $scratch/$exe.status).
    smoke_one() {
        local exe="$1" bin="$root/Fuzz/.build/debug/$1" log="$scratch/$1.log" out="$scratch/$1.out" status=0
        if [ ! -x "$bin" ]; then
            echo "fuzz smoke: $exe was not built" >"$out"; echo 1 >"$scratch/$exe.status"; return
        fi
        mkdir -p "$scratch/corpus/$exe" "$scratch/artifacts/$exe"
        # 1. Every kept input once (-runs=0 stops after the corpus is read and run).
        ASAN_OPTIONS="detect_leaks=0" "$bin" "$scratch/corpus/$exe" "$root/Fuzz/corpus/$exe" -runs=0 \
            -rss_limit_mb=2048 -timeout=10 -max_len=65536 -detect_leaks=0 -artifact_prefix="$scratch/artifacts/$exe/" \
            >"$log" 2>&1 || status=$?
        local replayed
        replayed="$(grep -oE '^#[0-9]+[[:space:]]+(INITED|DONE)' "$log" | tail -1 | grep -oE '[0-9]+' || true)"
        # 2. Fuzzing from there for the given time.
        if [ "$status" -eq 0 ]; then
            ASAN_OPTIONS="detect_leaks=0" "$bin" "$scratch/corpus/$exe" "$root/Fuzz/corpus/$exe" \
                -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len=65536 -print_final_stats=1 \
                -detect_leaks=0 -artifact_prefix="$scratch/artifacts/$exe/" >>"$log" 2>&1 || status=$?
        fi
        local execs
        execs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1 || true)"
        if [ "$status" -ne 0 ]; then
            {
                echo "fuzz smoke: $exe CRASHED (exit $status); the input is kept below:"
                grep -E 'ERROR|SUMMARY|Fatal error|Test unit written' "$log" | head -8 | sed 's/^/    /'
                for f in "$scratch/artifacts/$exe"/*; do [ -f "$f" ] && { echo "    $f:"; base64 "$f" | head -40; }; done
            } >"$out"
            echo 1 >"$scratch/$exe.status"
        else
            echo "fuzz smoke: $exe: kept corpus replayed (${replayed:-?} inputs), ${execs:-?} executions in ${seconds} s, no crash" >"$out"
            echo 0 >"$scratch/$exe.status"
        fi
    }
    # The targets run side by side, one per core (each libFuzzer process uses one), so the smoke takes
    # SECONDS × targets ÷ cores, not SECONDS × targets.
    width="${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}"
    running=0
    for exe in "${all_targets[@]}"; do
        smoke_one "$exe" &
        running=$((running + 1))
        if [ "$running" -ge "$width" ]; then wait -n || true; running=$((running - 1)); fi
    done
    wait
    failed=0
    for exe in "${all_targets[@]}"; do
        if [ "$(cat "$scratch/$exe.status" 2>/dev/null || echo 1)" = 0 ]; then
            cat "$scratch/$exe.out"
        else
            cat "$scratch/$exe.out" >&2 2>/dev/null || echo "fuzz smoke: $exe gave no report" >&2
            failed=1
        fi
    done
    exit "$failed"
fi
[ $# -ge 2 ] || usage
target="$1"; seconds="$2"; shift 2
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "SECONDS must be a whole number" >&2; exit 64; }

failed=0
if [ "$target" = all ]; then
    for exe in "${all_targets[@]}"; do run "$exe" "$@" || failed=1; done
else
    exe="$(executable "$target")" || exit 64
    run "$exe" "$@" || failed=1
fi
exit "$failed"
