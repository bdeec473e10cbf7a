#!/usr/bin/env bash
# Runs a command as on a fresh machine: every optional tool the tests use is hidden, for real, in a private mount
# namespace (nothing outside this command sees a change), so each test that needs one must show as skipped.
#
#   scripts/without-tools.sh COMMAND [ARG...]      e.g. scripts/without-tools.sh swift test
#
# Hidden: the programs `scripts/install-deps.sh --tests` adds (sqlite3, xmllint, unzip, osmium, bzip2, chromium,
# chattr, script, nginx, tsc, eslint), its Python modules (cryptography, jsonschema, yaml: importing one fails),
# Unicode CLDR and everything it puts into .deps/ (the SARIF schema, gtfs-guru, actionlint). Kept: the Swift
# toolchain, git, python3 itself and node (a fresh machine of ours has them; README's first command installs the
# C libraries). .ci/run uses this to prove README's test command passes where the optional tools are absent.
#
# Needs root (or user namespaces) and util-linux's unshare; CI runs as root.
set -euo pipefail
if [ $# -eq 0 ]; then
  echo "usage: scripts/without-tools.sh COMMAND [ARG...]" >&2
  exit 64
fi
root="$(cd "$(dirname "$0")/.." && pwd)"

if [ "${CITYPACK_WITHOUT_TOOLS_INSIDE:-}" != 1 ]; then
  if ! command -v unshare >/dev/null 2>&1; then
    echo "without-tools: error: unshare (util-linux) is needed to hide the tools" >&2
    exit 69
  fi
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  exec $sudo env CITYPACK_WITHOUT_TOOLS_INSIDE=1 unshare --mount --propagation private -- "$0" "$@"
fi

hidden_programs=(sqlite3 xmllint unzip osmium bzip2 chromium chromium-browser google-chrome chattr script nginx tsc eslint)
scratch="$(mktemp -d "${TMPDIR:-/tmp}/citypack-without-tools.XXXXXX")"
mount -t tmpfs tmpfs "$scratch"

# A program folder is replaced by a folder of links to its original entries (reached through a second bind
# mount), minus the hidden programs: `existsSync`, `isExecutableFile`, `command -v` and exec all miss them.
shadow_folder() {
  local dir="$1" name="$2"
  [ -d "$dir" ] || return 0
  mkdir -p "$scratch/orig-$name" "$scratch/shadow-$name"
  mount --bind "$dir" "$scratch/orig-$name"
  local entry base skip p
  for entry in "$scratch/orig-$name"/* "$scratch/orig-$name"/.[!.]*; do
    [ -e "$entry" ] || [ -L "$entry" ] || continue
    base="$(basename "$entry")"
    skip=0
    for p in "${hidden_programs[@]}"; do [ "$base" = "$p" ] && skip=1; done
    [ "$skip" = 1 ] || ln -s "$entry" "$scratch/shadow-$name/$base"
  done
  mount --bind "$scratch/shadow-$name" "$dir"
}
shadow_folder /usr/bin usrbin
shadow_folder /usr/sbin usrsbin
shadow_folder /usr/local/bin usrlocalbin
shadow_folder /usr/local/sbin usrlocalsbin
# /bin and /sbin are links to /usr/bin and /usr/sbin on Debian 12; hide there too where they are folders.
for d in /bin /sbin; do [ -L "$d" ] || shadow_folder "$d" "$(basename "$d")"; done

# Python modules: an importable package of the same name that refuses to import.
for module in cryptography jsonschema yaml; do
  for site in /usr/lib/python3/dist-packages /usr/local/lib/python3*/dist-packages; do
    if [ -d "$site/$module" ]; then
      mkdir -p "$scratch/py-$module"
      printf 'raise ImportError("%s is hidden by scripts/without-tools.sh")\n' "$module" > "$scratch/py-$module/__init__.py"
      mount --bind "$scratch/py-$module" "$site/$module"
    fi
  done
done

# Data the tests read: CLDR and the repository's .deps/ (SARIF schema, gtfs-guru, actionlint).
mkdir -p "$scratch/empty"
[ -d /usr/share/unicode/cldr ] && mount --bind "$scratch/empty" /usr/share/unicode/cldr
[ -d "$root/.deps" ] && mount --bind "$scratch/empty" "$root/.deps"

unset CITYPACK_WITHOUT_TOOLS_INSIDE
exec "$@"
