"""The shared vectors of answers bound to their request (``answers``) and of the one
``notificationType`` rule (``notification_types``) in tests/data/signing-vectors.json
(issue 35), which the Rust, TypeScript, Java and PHP verifiers pass too."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from baas_runtime.envelope import open_response
from baas_runtime.errors import (
    ApiError,
    DecodeError,
    RequestIdMismatch,
    SignatureInvalid,
    SignatureMissing,
    Untrusted,
)
from baas_runtime.notification import Verifier
from baas_runtime.secret import PrivateKey

VECTORS_PATH = Path(__file__).resolve().parents[2] / "tests" / "data" / "signing-vectors.json"
VECTORS: dict[str, Any] = json.loads(VECTORS_PATH.read_text(encoding="utf-8"))


def _name(v: dict[str, Any]) -> str:
    return str(v["name"])


def _outcome(v: dict[str, Any]) -> str:
    try:
        open_response(200, v["body"].encode("utf-8"), PrivateKey(v["key"]), request_id=v["request_id"])
        return "success"
    except ApiError as e:
        return f"failure {e.code} verified={str(e.verified).lower()}"
    except RequestIdMismatch:
        return "refused request_id_mismatch"
    except Untrusted:
        return "refused wrong_kind"
    except SignatureMissing:
        return "refused signature_missing"
    except SignatureInvalid:
        return "refused signature_invalid"
    except DecodeError:
        return "refused malformed"


@pytest.mark.parametrize("vector", VECTORS["answers"], ids=_name)
def test_answers_are_bound_to_their_request(vector: dict[str, Any]) -> None:
    e = vector["expect"]
    expected = {
        "success": "success",
        "failure": f"failure {e.get('code')} verified={str(e.get('verified')).lower()}",
    }.get(e["outcome"], f"refused {e.get('refusal')}")
    assert _outcome(vector) == expected


@pytest.mark.parametrize("vector", VECTORS["notification_types"], ids=_name)
def test_notification_type_is_a_json_string(vector: dict[str, Any]) -> None:
    verifier = Verifier(PrivateKey(vector["key"]), vector["service_sender"])
    try:
        n = verifier.verify(vector["body"].encode("utf-8"), now_ms=vector["now_ms"])
        got = f"accepted {n.notification_type}"
    except (DecodeError, Untrusted):
        got = "refused"
    e = vector["expect"]
    assert got == (f"accepted {e['notification_type']}" if e["outcome"] == "accepted" else "refused")


BODIES_HOLDING_THE_KEY = [
    b'{"requestId":"R1","code":"00000","senderKey":"partner-secret-key"',
    b'{"requestId":"R1","code":["partner-secret-key"],"msg":"ok"}',
    b'{"requestId":"N1","notificationType":28,"note":"partner-secret-key","timestamp":1,"salt":"s"}',
    b"x" * 252 + b"partner-secret-key and more",
]


@pytest.mark.parametrize("body", BODIES_HOLDING_THE_KEY)
def test_a_decode_error_quotes_the_body_with_the_key_redacted(body: bytes) -> None:
    from baas_runtime.notification import verify_body

    key = PrivateKey("partner-secret-key")
    for attempt in (
        lambda: open_response(200, body, key, request_id="R1"),
        lambda: verify_body(body, key),
    ):
        with pytest.raises((DecodeError, SignatureMissing, Untrusted)) as caught:
            attempt()
        shown = f"{caught.value} {caught.value!r} {getattr(caught.value, 'snippet', '')}"
        assert "partner-secret" not in shown and "partner-s" not in shown, shown
