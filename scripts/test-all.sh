#!/usr/bin/env bash
# Every language's tests in one command (the README's test command; .ci/run's test step runs it):
#
#   scripts/test-all.sh                  # Rust, Python, TypeScript, Java (when java/pom.xml exists), PHP, README examples
#   scripts/test-all.sh --skip java      # leave out a language whose tools you do not have (repeatable)
#
# What it needs installed (it checks them all first and names what is missing, running nothing):
#   rust        cargo (Rust 1.85 or newer); crates.io, or a filled cargo cache
#   python      python3 3.10 or newer with venv; PyPI for python/requirements.txt (pinned,
#               installed into target/python-venv)
#   typescript  node 20.3 or newer and npm; the npm registry for package-lock.json (npm ci)
#   java        a JDK 17 or newer (javac) and Maven 3.8 or newer; Maven Central for the pinned plugins
#   php         PHP 8.1 or newer (php-cli) and Debian's phpunit; composer for the partner-project
#               test (php/tests/run.sh says which tests need what)
#   readme      the Python, TypeScript and PHP tools above (tests/readme/check.py)
# Nothing beside the repository is needed: the tests that read the bank's documents
# (../shared/reference/, tests/tests/spec_matches_source.rs) say they skip when it is absent, and
# fail instead under CI=true or BAAS_REQUIRE_SHARED=1. The sandbox tests of every language use the
# baas-sandbox binary built here (BAAS_SANDBOX); BAAS_REQUIRE_SANDBOX=1 (CI) makes its absence a failure.
#
# Runs every language even when one fails, then lists the failures (exit 1). About 10 minutes on
# 2 cores with warm caches (cargo test --workspace is most of it); the first run also downloads
# the pinned tools.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

all=(rust python typescript java php readme)
skip=" "
while [ $# -gt 0 ]; do
  case "$1" in
    --skip) [ $# -ge 2 ] || { echo "test-all: --skip needs a language: ${all[*]}" >&2; exit 2; }
            case " ${all[*]} " in *" $2 "*) ;; *) echo "test-all: no language $2 (${all[*]})" >&2; exit 2;; esac
            skip="$skip$2 "; shift 2;;
    -h|--help) sed -n '2,25p' "$0"; exit 0;;
    *) echo "test-all: unknown argument $1 (--skip LANG, --help)" >&2; exit 2;;
  esac
done
[ -f java/pom.xml ] || skip="${skip}java "
wanted() { case "$skip" in *" $1 "*) return 1;; *) return 0;; esac; }

# What is missing, before anything runs.
missing=()
need() { command -v "$2" >/dev/null 2>&1 || missing+=("$1: $2 ($3)"); }
wanted rust && need rust cargo "Rust 1.85 or newer, https://rustup.rs"
if wanted python || wanted readme; then
  need python python3 "Python 3.10 or newer with venv (Debian: python3-venv)"
  python3 -c 'import sys, venv; sys.exit(sys.version_info < (3, 10))' 2>/dev/null \
    || missing+=("python: python3 3.10 or newer with the venv module (Debian: python3-venv)")
fi
if wanted typescript || wanted readme; then
  need typescript node "Node 20.3 or newer"
  need typescript npm "npm, with Node"
fi
if wanted java; then
  need java javac "a JDK 17 or newer (Debian: openjdk-17-jdk-headless)"
  need java mvn "Maven 3.8 or newer (Debian: maven)"
fi
if wanted php || wanted readme; then
  need php php "PHP 8.1 or newer CLI (Debian: php-cli)"
fi
wanted php && need php phpunit "PHPUnit (Debian: phpunit)"
if [ ${#missing[@]} -gt 0 ]; then
  echo "test-all: missing (install it, or --skip the language):" >&2
  printf '  %s\n' "${missing[@]}" >&2
  exit 2
fi

export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
target="${CARGO_TARGET_DIR:-target}"
case "$target" in /*) ;; *) target="$root/$target";; esac
export BAAS_SANDBOX="${BAAS_SANDBOX:-$target/debug/baas-sandbox}"

start=$(date +%s)
failed=()
run() {  # run LANGUAGE WHAT COMMAND...
  local lang=$1 what=$2; shift 2
  echo; echo "=== $lang: $what ($(( $(date +%s) - start ))s)"
  if ! "$@"; then
    failed+=("$lang: $what")
    return 1
  fi
}

# The binaries the other languages' tests run (the sandbox, and baas-sign to compare with);
# with --skip rust, the ones already in $BAAS_SANDBOX / the target directory are used.
if wanted rust; then
  run rust "build baas-sandbox and baas-sign" cargo build --locked -q -p baas-sandbox -p baas-sign --bins
elif [ ! -x "$BAAS_SANDBOX" ]; then
  echo "test-all: no sandbox binary at $BAAS_SANDBOX (--skip rust builds none): the SDKs' sandbox tests skip"
fi
if wanted rust; then
  run rust "cargo test --workspace" cargo test --locked --workspace
fi
if wanted python || wanted readme; then
  run python "install (python/requirements.txt into target/python-venv)" sh -c '
    { [ -x target/python-venv/bin/python ] || python3 -m venv target/python-venv; } &&
    target/python-venv/bin/pip install -q --disable-pip-version-check -r python/requirements.txt -c python/constraints.txt'
fi
if wanted python; then
  run python "mypy --strict" sh -c 'cd python && ../target/python-venv/bin/mypy'
  run python "pytest" sh -c 'cd python && ../target/python-venv/bin/pytest -q'
fi
if wanted typescript || wanted readme; then
  run typescript "npm ci" npm ci --no-audit --no-fund --loglevel=error
fi
if wanted typescript; then
  run typescript "npm test (tsc --strict, node --test)" npm test --silent
elif wanted readme; then
  run typescript "npm run build" npm run build --silent
fi
if wanted java; then
  run java "mvn verify" mvn -B -ntp -q -f java/pom.xml verify
fi
if wanted php; then
  run php "php/tests/run.sh" php/tests/run.sh
fi
if wanted readme; then
  run readme "README examples (mypy --strict, tsc, php -l)" \
    python3 tests/readme/check.py --mypy target/python-venv/bin/mypy --tsc node_modules/.bin/tsc --php php
fi

echo
if [ ${#failed[@]} -gt 0 ]; then
  echo "test-all: FAILED after $(( $(date +%s) - start ))s:"
  printf '  %s\n' "${failed[@]}"
  exit 1
fi
ran=$(for l in "${all[@]}"; do wanted "$l" && printf '%s ' "$l"; done)
echo "test-all: all passed ($ran) in $(( $(date +%s) - start ))s"
