#!/usr/bin/env bash
# Builds and tests the Java signing library with the JDK alone (javac and java, 17 or later):
# no dependencies, no downloads. Classes go to build/; exits non-zero on any failure.
#
#   java/build.sh    # compile (warnings are errors), build/baas-signing.jar, the tests, the CLI
set -euo pipefail
cd "$(dirname "$0")"
start=$(date +%s)
for tool in javac java jar; do
  if ! command -v "$tool" >/dev/null; then
    echo "build.sh: $tool not found: install a JDK, version 17 or later" >&2
    exit 2
  fi
done

VECTORS=src/test/resources/signing-vectors.json
# In the SDK's repository this copy must stay identical to the shared vectors.
SHARED=../tests/data/signing-vectors.json
if [ -f "$SHARED" ] && ! cmp -s "$SHARED" "$VECTORS"; then
  echo "build.sh: $VECTORS differs from $SHARED: copy it again" >&2
  exit 1
fi

rm -rf build
mkdir -p build/main build/test
mapfile -t main_sources < <(find src/main/java -name '*.java' | sort)
mapfile -t test_sources < <(find src/test/java -name '*.java' | sort)
# -Xdoclint: every public class and method of the library has its Javadoc.
javac -Xlint:all -Xdoclint:all/protected -Werror --release 17 -encoding UTF-8 \
  -d build/main "${main_sources[@]}"
javac -Xlint:all -Werror --release 17 -encoding UTF-8 -cp build/main \
  -d build/test "${test_sources[@]}"
# The library and the command in one jar: java -jar build/baas-signing.jar --verify < body.json
jar --create --file build/baas-signing.jar --main-class com.baas.signing.BaasSign -C build/main .
echo "compiled ${#main_sources[@]} library and ${#test_sources[@]} test sources with javac $(javac -version 2>&1 | cut -d' ' -f2): build/baas-signing.jar"

failed=0
for test in SigningVectorsTest AnswerVectorsTest CanonicalTest NotificationVerifierTest BaasSignTest; do
  java -cp build/main:build/test "com.baas.signing.$test" "$VECTORS" || failed=1
done

# The command itself, from the jar, as a partner runs it: the worked example of the API document.
baas_sign() { java -jar build/baas-signing.jar "$@"; }
fail() { echo "FAIL BaasSign CLI: $*"; failed=1; }
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
code=0; echo "$example" | env -u BAAS_PRIVATE_KEY java -jar build/baas-signing.jar 2>/dev/null || code=$?
[ "$code" = 2 ] || fail "without BAAS_PRIVATE_KEY exited $code, not 2"
[ "$failed" = 0 ] && echo "BaasSign CLI: the worked example signs, attaches and verifies ($signature)"

if [ "$failed" != 0 ]; then
  echo "build.sh: FAILED ($(( $(date +%s) - start ))s)"
  exit 1
fi
echo "build.sh: all passed ($(( $(date +%s) - start ))s)"
