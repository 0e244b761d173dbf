#!/usr/bin/env bash
# Runs the outside tools against the sandbox binary on loopback (called by .ci/run):
#   schemathesis, driven by generated/openapi/openapi.json, signing each request in
#   interop/schemathesis/hooks.py: no HTTP 5xx, every answer matches the schema, every
#   answer to a signed POST is signed and verifies;
#   newman, running generated/postman/baas.postman_collection.json: every answer
#   verified by the collection's own script, the happy-path requests answered 00000.
# Needs: target/interop-venv (interop/requirements.txt), interop/postman/node_modules,
# and the sandbox built (cargo build -p baas-sandbox --bin baas-sandbox).
# Usage: interop/against-sandbox.sh [EXAMPLES_PER_OPERATION]   (default 40)
set -euo pipefail
cd "$(dirname "$0")/.."
examples="${1:-40}"
venv="$(realpath "${INTEROP_VENV:-target/interop-venv}")"
sandbox="${CARGO_TARGET_DIR:-target}/debug/baas-sandbox"
log="$(mktemp)"

"$sandbox" --port 0 >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; rm -f "$log"' EXIT
url=""
for _ in $(seq 100); do
  url="$(sed -n 's/^baas-sandbox listening on //p' "$log")"
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { echo "the sandbox did not start:"; cat "$log"; exit 1; }
echo "sandbox at $url (pid $pid)"

t0=$(date +%s)
echo "--- schemathesis $("$venv/bin/st" --version 2>/dev/null | tail -1): $examples examples per operation, positive and negative"
(
  cd interop/schemathesis
  SCHEMATHESIS_HOOKS=hooks timeout 600 "$venv/bin/st" run ../../generated/openapi/openapi.json \
    --url "$url" \
    --checks not_a_server_error,response_schema_conformance,content_type_conformance,response_is_signed \
    --mode all --max-examples "$examples" --phases examples,coverage,fuzzing \
    --seed 12 --workers 2 --generation-database none --no-color
)
echo "--- schemathesis took $(( $(date +%s) - t0 ))s"

t0=$(date +%s)
# Operations whose generated example succeeds against the sandbox's seed data.
happy="queryAccountListByUserId,getAbnormalAccountList,getForeignExchangeRate,getBankCodes,addEmail,verifyEmailAddress"
echo "--- newman $(interop/postman/node_modules/.bin/newman --version)"
interop/postman/node_modules/.bin/newman run generated/postman/baas.postman_collection.json \
  --env-var "baseUrl=$url" --env-var "happyPath=$happy" \
  --reporters cli --reporter-cli-no-banner --color off
echo "--- newman took $(( $(date +%s) - t0 ))s"
