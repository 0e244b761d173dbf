#!/usr/bin/env bash
# Tests the PHP runtime (baas/runtime) with the PHP CLI (8.1 or later; hash, json and pcre, no
# mbstring): no Composer, no downloads. Exits non-zero on any failure.
#
#   php/tests/run.sh    # php -l on every file, the vectors copy, the signing suites (no
#                       # framework), bin/baas-sign, the runtime under `php -n`, then PHPUnit
#
# PHPUnit (Debian's `phpunit` package) runs the runtime's tests when it is installed; with
# BAAS_REQUIRE_PHPUNIT=1 (CI) its absence is a failure. Its sandbox tests need the baas-sandbox
# binary (BAAS_SANDBOX, or target/debug under CARGO_TARGET_DIR or the repository; CI sets
# BAAS_REQUIRE_SANDBOX=1), its curl transport and PDO store tests ext-curl and pdo_sqlite (BAAS_REQUIRE_EXTENSIONS=1 in CI).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
if ! command -v php >/dev/null; then
  echo "run.sh: php not found: install the PHP CLI, version 8.1 or later" >&2
  exit 2
fi
if ! php -r 'exit(PHP_VERSION_ID >= 80100 ? 0 : 1);'; then
  echo "run.sh: PHP $(php -r 'echo PHP_VERSION;') is too old: 8.1 or later is needed" >&2
  exit 2
fi

# The shared vectors every language reads from where they are (never a copy): their
# absence is a failure, not a skip.
VECTORS=../tests/data/signing-vectors.json
if [ ! -f "$VECTORS" ]; then
  echo "run.sh: the shared signing vectors $VECTORS are missing (run from the SDK's repository)" >&2
  exit 1
fi

failed=0
mapfile -t sources < <(find src tests bin autoload.php -type f \( -name '*.php' -o -path bin/baas-sign \) | sort)
# The generated client (baas/client), when this runtime sits in the SDK's repository.
if [ -d ../generated/php ]; then
  mapfile -t -O "${#sources[@]}" sources < <(find ../generated/php -type f -name '*.php' | sort)
fi
for f in "${sources[@]}"; do
  if ! out=$(php -l "$f" 2>&1); then
    echo "FAIL php -l: $out"
    failed=1
  fi
done
echo "php -l: ${#sources[@]} files with PHP $(php -r 'echo PHP_VERSION;')"

for suite in SigningVectorsTest AnswerVectorsTest CanonicalTest FastReaderTest SecretTest NotificationVerifierTest BaasSignTest DocblockTest; do
  php -d zend.assertions=1 "tests/$suite.php" "$VECTORS" || failed=1
done

# The command itself, as a partner runs it: the worked example of the API document.
baas_sign() { bin/baas-sign "$@"; }
fail() { echo "FAIL baas-sign CLI: $*"; failed=1; }
example='{"requestId":"APPREQ00990320fed02000","sender":"client1","locale":"en_KE","timestamp":1650533105687,"salt":"QcEwsZ123da","params":{"name":"Tester"}}'
signature=ce4f419f667b7d5621892337c23905b894472e6b186f06a0e237528b011ab2f2
expected="locale=en_KE&params.name=Tester&requestId=APPREQ00990320fed02000&salt=QcEwsZ123da&sender=client1&senderKey=[redacted]&timestamp=1650533105687
$signature"
got=$(echo "$example" | BAAS_PRIVATE_KEY=yourkey baas_sign) || fail "sign exited $?"
[ "$got" = "$expected" ] || fail "sign printed: $got"
signed=$(echo "$example" | BAAS_PRIVATE_KEY=yourkey baas_sign --attach) || fail "--attach exited $?"
[ "$signed" = "${example%\}},\"signature\":\"$signature\"}" ] || fail "--attach printed: $signed"
got=$(echo "$signed" | BAAS_PRIVATE_KEY=yourkey baas_sign --verify) || fail "--verify exited $?"
[ "$got" = "signature OK: $signature" ] || fail "--verify printed: $got"
code=0; echo "$signed" | BAAS_PRIVATE_KEY=otherkey baas_sign --verify 2>/dev/null || code=$?
[ "$code" = 1 ] || fail "--verify with another key exited $code, not 1"
code=0; echo "$example" | env -u BAAS_PRIVATE_KEY bin/baas-sign 2>/dev/null || code=$?
[ "$code" = 2 ] || fail "without BAAS_PRIVATE_KEY exited $code, not 2"
code=0; echo "$example" | BAAS_PRIVATE_KEY= baas_sign 2>/dev/null || code=$?
[ "$code" = 2 ] || fail "with an empty BAAS_PRIVATE_KEY exited $code, not 2"
code=0; baas_sign --version >/dev/null || code=$?
[ "$code" = 0 ] || fail "--version exited $code, not 0"
[ "$failed" = 0 ] && echo "baas-sign CLI: the worked example signs, attaches and verifies ($signature)"

# The runtime on a PHP without any extension `php -n` drops (curl, mbstring, bcmath, PDO).
php -n tests/plain-php.php || failed=1

if command -v phpunit >/dev/null; then
  phpunit || failed=1
elif [ "${BAAS_REQUIRE_PHPUNIT:-}" = 1 ]; then
  echo "FAIL: BAAS_REQUIRE_PHPUNIT=1 but phpunit is not installed (Debian: apt-get install phpunit)"
  failed=1
else
  echo "run.sh: phpunit is not installed: the runtime's PHPUnit tests were not run"
fi

if [ "$failed" != 0 ]; then
  echo "run.sh: FAILED ($(( $(date +%s) - start ))s)"
  exit 1
fi
echo "run.sh: all passed ($(( $(date +%s) - start ))s)"
