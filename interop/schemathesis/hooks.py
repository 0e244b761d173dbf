"""Schemathesis hooks for the BaaS API (loaded with SCHEMATHESIS_HOOKS=hooks).

* `before_call` signs each generated request the way the OpenAPI document's
  `x-baas-signing` says: a fresh requestId, salt and millisecond timestamp, the
  sandbox partner's sender and locale, then `signature` over the rest.
* `response_is_signed` (a check) requires every answer to a signed POST to carry a
  signature that verifies with the partner's key (numbers as their literal text), to
  echo the requestId, and to carry a five-digit `code`.
"""

import os
import secrets
import sys
import time

import schemathesis

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import signing  # noqa: E402

SENDER = os.environ.get("BAAS_SENDER", "sandbox-partner")
KEY = os.environ.get("BAAS_KEY", "sandbox-test-key-not-a-secret")
SIGNED_MARK = "x-baas-signed-by-hook"


@schemathesis.hook
def before_call(context, case, kwargs):
    body = case.body
    if case.method.upper() != "POST" or not isinstance(body, dict):
        # Another method (answered 12000 without reading the body) or a body that is
        # not an object (negative data): sent as generated, unsigned.
        return
    body["requestId"] = SENDER + secrets.token_hex(16)
    body["sender"] = SENDER
    body["locale"] = "en_KE"
    body["timestamp"] = int(time.time() * 1000)
    body["salt"] = secrets.token_hex(8)
    if not isinstance(body.get("params"), dict):
        body["params"] = {}
    body.pop("signature", None)
    body["signature"] = signing.signature(body, KEY)
    try:
        # A body no signer of ours would sign (a key holding `.`, a null, a value that
        # reads as a pair: negative data) may be refused unsigned, quoting nothing of
        # it: the sandbox signs nothing that could be re-cut.
        signing.check_unambiguous({k: v for k, v in body.items() if k != "signature"}, received=False)
    except signing.Ambiguous:
        return
    if case.headers is None:
        case.headers = {}
    case.headers[SIGNED_MARK] = body["requestId"]


@schemathesis.check
def response_is_signed(ctx, response, case):
    request_id = response.request.headers.get(SIGNED_MARK)
    if request_id is None:
        return None  # an unsigned (negative) request may get an unsigned answer
    try:
        message = signing.loads_literal(response.content.decode("utf-8"))
    except ValueError as e:
        raise AssertionError(f"the answer is not JSON: {e}")
    if not isinstance(message, dict):
        raise AssertionError("the answer is not a JSON object")
    if "signature" not in message:
        raise AssertionError(f"unsigned answer to a signed request: {message.get('code')} {message.get('msg')}")
    if not signing.verifies(message, KEY):
        raise AssertionError("the answer's signature does not verify")
    if message.get("requestId") != request_id:
        raise AssertionError(f"requestId not echoed: sent {request_id}, got {message.get('requestId')}")
    code = message.get("code")
    if not (isinstance(code, str) and len(code) == 5 and code.isdigit()):
        raise AssertionError(f"`code` is not five digits: {code!r}")
    return None
